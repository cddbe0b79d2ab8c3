package dev.remedy.simulators.ipmi;

import java.util.Arrays;

/**
 * An IPMI request message as a console sends it to the BMC (IPMI v2.0 section 13.8): rsAddr, netFn/rsLUN,
 * checksum, rqAddr, rqSeq/rqLUN, command, data, checksum.
 */
record IpmiRequest(int rsAddr, int netFn, int rsLun, int rqAddr, int rqSeq, int rqLun, int command, byte[] data) {

    /** Application network function. */
    static final int NETFN_APP = 0x06;
    /** Chassis network function. */
    static final int NETFN_CHASSIS = 0x00;

    /** The request in {@code b[offset, offset + length)}, or null if too short or a checksum is wrong. */
    static IpmiRequest decode(byte[] b, int offset, int length) {
        if (length < 7 || !Wire.checksumOk(b, offset, 3) || !Wire.checksumOk(b, offset + 3, length - 3)) {
            return null;
        }
        return new IpmiRequest(Wire.u8(b, offset), Wire.u8(b, offset + 1) >>> 2, b[offset + 1] & 3,
                Wire.u8(b, offset + 3), Wire.u8(b, offset + 4) >>> 2, b[offset + 4] & 3, Wire.u8(b, offset + 5),
                Arrays.copyOfRange(b, offset + 6, offset + length - 1));
    }

    /** Writes the response to this request at {@code out[offset]} and returns its length. */
    int encodeResponse(IpmiResponse response, byte[] out, int offset) {
        out[offset] = (byte) rqAddr;
        out[offset + 1] = (byte) ((netFn | 1) << 2 | rqLun);
        out[offset + 2] = Wire.checksum(out, offset, 2);
        out[offset + 3] = (byte) rsAddr;
        out[offset + 4] = (byte) (rqSeq << 2 | rsLun);
        out[offset + 5] = (byte) command;
        out[offset + 6] = (byte) response.completionCode();
        byte[] data = response.data();
        System.arraycopy(data, 0, out, offset + 7, data.length);
        int end = offset + 7 + data.length;
        out[end] = Wire.checksum(out, offset + 3, end - offset - 3);
        return end + 1 - offset;
    }

    /** Whether {@code other} is the same request again (a retransmission): same rqSeq, function, command, data. */
    boolean sameAs(IpmiRequest other) {
        return other != null && rqSeq == other.rqSeq && netFn == other.netFn && command == other.command
                && rqAddr == other.rqAddr && Arrays.equals(data, other.data);
    }

    @Override
    public String toString() {
        return String.format("IpmiRequest[netFn=0x%02x, cmd=0x%02x, rqSeq=%d, data=%d bytes]", netFn, command, rqSeq,
                data.length);
    }
}
