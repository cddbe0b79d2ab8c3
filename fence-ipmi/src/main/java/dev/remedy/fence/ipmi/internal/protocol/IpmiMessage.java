package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * An IPMI message as carried in an {@link PayloadType#IPMI_MESSAGE} payload: target address, netFn/target LUN,
 * checksum 1 (over the first two bytes), source address, sequence/source LUN, command, data, checksum 2 (over
 * source address through data). Checksums are two's complement: the covered bytes plus the checksum sum to 0
 * mod 256. In a request the target is the BMC (0x20) and the source the remote console (0x81); in a response the
 * roles swap and the data starts with the completion code.
 *
 * @param data copied in and out
 */
public record IpmiMessage(int targetAddress, int netFn, int targetLun, int sourceAddress, int sequence,
        int sourceLun, int command, byte[] data) {

    /** The BMC's slave address. */
    public static final int BMC_ADDRESS = 0x20;
    /** The remote console's software id as requester address. */
    public static final int CONSOLE_ADDRESS = 0x81;
    /** Length of a message with no data. */
    public static final int MIN_LENGTH = 7;

    /** Validates ranges and copies the data. */
    public IpmiMessage {
        range(targetAddress, 0xFF, "targetAddress");
        range(netFn, 0x3F, "netFn");
        range(targetLun, 3, "targetLun");
        range(sourceAddress, 0xFF, "sourceAddress");
        range(sequence, 0x3F, "sequence");
        range(sourceLun, 3, "sourceLun");
        range(command, 0xFF, "command");
        data = Objects.requireNonNull(data, "data").clone();
    }

    /** A request from the console (0x81, LUN 0) to the BMC (0x20, LUN 0). */
    public static IpmiMessage request(int netFn, int command, int sequence, byte[] data) {
        return new IpmiMessage(BMC_ADDRESS, netFn, 0, CONSOLE_ADDRESS, sequence, 0, command, data);
    }

    /** The data (a copy). */
    @Override
    public byte[] data() {
        return data.clone();
    }

    /** Whether this is a response (odd netFn). */
    public boolean isResponse() {
        return (netFn & 1) != 0;
    }

    /**
     * The completion code of a response (first data byte).
     *
     * @throws IllegalStateException if this is a request or has no data
     */
    public int completionCode() {
        if (!isResponse() || data.length == 0) {
            throw new IllegalStateException("only a response with data has a completion code: " + this);
        }
        return data[0] & 0xFF;
    }

    /** The two's-complement checksum of {@code length} bytes at {@code offset}. */
    public static int checksum(byte[] bytes, int offset, int length) {
        int sum = 0;
        for (int i = offset; i < offset + length; i++) {
            sum += bytes[i];
        }
        return -sum & 0xFF;
    }

    /** The message on the wire, with both checksums. */
    public byte[] encode() {
        byte[] out = new byte[MIN_LENGTH + data.length];
        out[0] = (byte) targetAddress;
        out[1] = (byte) (netFn << 2 | targetLun);
        out[2] = (byte) checksum(out, 0, 2);
        out[3] = (byte) sourceAddress;
        out[4] = (byte) (sequence << 2 | sourceLun);
        out[5] = (byte) command;
        System.arraycopy(data, 0, out, 6, data.length);
        out[out.length - 1] = (byte) checksum(out, 3, out.length - 4);
        return out;
    }

    /**
     * Reads a message of {@code length} bytes at {@code offset}.
     *
     * @throws MalformedPacketException if it is shorter than 7 bytes or a checksum is wrong
     */
    public static IpmiMessage decode(byte[] bytes, int offset, int length) {
        MalformedPacketException.require(length >= MIN_LENGTH && offset + length <= bytes.length, "IPMI message",
                offset, () -> "length " + length + " is shorter than the 7-byte minimum or past the end of the packet");
        int end = offset + length;
        MalformedPacketException.require(checksum(bytes, offset, 3) == 0, "IPMI checksum 1", offset + 2,
                () -> "header checksum does not match");
        MalformedPacketException.require(checksum(bytes, offset + 3, length - 3) == 0, "IPMI checksum 2", end - 1,
                () -> "data checksum does not match");
        int netFnLun = bytes[offset + 1] & 0xFF;
        int seqLun = bytes[offset + 4] & 0xFF;
        return new IpmiMessage(bytes[offset] & 0xFF, netFnLun >>> 2, netFnLun & 3, bytes[offset + 3] & 0xFF,
                seqLun >>> 2, seqLun & 3, bytes[offset + 5] & 0xFF, Arrays.copyOfRange(bytes, offset + 6, end - 1));
    }

    private static void range(int value, int max, String name) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(name + " must be 0.." + max + ", was " + value);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpmiMessage m && targetAddress == m.targetAddress && netFn == m.netFn
                && targetLun == m.targetLun && sourceAddress == m.sourceAddress && sequence == m.sequence
                && sourceLun == m.sourceLun && command == m.command && Arrays.equals(data, m.data);
    }

    @Override
    public int hashCode() {
        return Objects.hash(targetAddress, netFn, targetLun, sourceAddress, sequence, sourceLun, command)
                * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return String.format("IpmiMessage[0x%02x->0x%02x, netFn=0x%02x, cmd=0x%02x, seq=%d, data=%s]",
                sourceAddress, targetAddress, netFn, command, sequence, HexFormat.of().formatHex(data));
    }
}
