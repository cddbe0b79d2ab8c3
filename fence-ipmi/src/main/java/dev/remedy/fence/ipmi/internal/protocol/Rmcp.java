package dev.remedy.fence.ipmi.internal.protocol;

/**
 * The 4-byte RMCP header that starts every IPMI-over-LAN datagram: version 0x06, reserved 0x00, sequence 0xFF
 * (no RMCP ACK) and class 0x07 (IPMI).
 */
public final class Rmcp {

    /** Header length in bytes. */
    public static final int LENGTH = 4;
    /** RMCP version 1.0. */
    public static final int VERSION = 0x06;
    /** Sequence number that asks for no RMCP ACK. */
    public static final int SEQUENCE_NO_ACK = 0xFF;
    /** Message class IPMI (normal, not an ACK). */
    public static final int CLASS_IPMI = 0x07;

    private Rmcp() {
    }

    /** Writes the header at {@code offset}. */
    public static void write(byte[] datagram, int offset) {
        datagram[offset] = VERSION;
        datagram[offset + 1] = 0x00;
        datagram[offset + 2] = (byte) SEQUENCE_NO_ACK;
        datagram[offset + 3] = CLASS_IPMI;
    }

    /**
     * Checks the header at the start of a datagram of {@code length} bytes.
     *
     * @throws MalformedPacketException if the length is outside the buffer, or the datagram is short or not an RMCP
     *     IPMI header
     */
    public static void check(byte[] datagram, int length) {
        MalformedPacketException.require(fits(datagram, length), "datagram", 0,
                () -> "length " + length + " is outside the " + datagram.length + "-byte buffer");
        MalformedPacketException.require(length >= LENGTH, "RMCP header", 0,
                () -> "datagram of " + length + " bytes is shorter than the 4-byte RMCP header");
        expect(datagram, 0, VERSION, "RMCP version");
        expect(datagram, 1, 0x00, "RMCP reserved");
        expect(datagram, 2, SEQUENCE_NO_ACK, "RMCP sequence");
        expect(datagram, 3, CLASS_IPMI, "RMCP class");
    }

    /** Whether {@code length} bytes are a possible datagram in {@code buffer}: 0 to the buffer's length. */
    static boolean fits(byte[] buffer, int length) {
        return length >= 0 && length <= buffer.length;
    }

    private static void expect(byte[] datagram, int offset, int value, String field) {
        int actual = datagram[offset] & 0xFF;
        MalformedPacketException.require(actual == value, field, offset,
                () -> String.format("expected 0x%02x, got 0x%02x", value, actual));
    }
}
