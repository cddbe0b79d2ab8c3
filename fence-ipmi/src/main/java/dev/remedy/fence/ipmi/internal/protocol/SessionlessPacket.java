package dev.remedy.fence.ipmi.internal.protocol;

/**
 * An IPMI v1.5 LAN packet outside any session (auth type none, session id 0, sequence 0), the form in which
 * Get Channel Authentication Capabilities is sent before an RMCP+ session exists: RMCP header, auth type 0x00,
 * session sequence (4 bytes), session id (4 bytes), message length (1 byte), IPMI message.
 */
public final class SessionlessPacket {

    /** Auth type byte of an IPMI v1.5 packet without authentication. */
    public static final int AUTH_TYPE_NONE = 0x00;
    private static final int HEADER = Rmcp.LENGTH + 10;

    private SessionlessPacket() {
    }

    /** The datagram carrying {@code message}. */
    public static byte[] encode(IpmiMessage message) {
        byte[] body = message.encode();
        byte[] out = new byte[HEADER + body.length];
        Rmcp.write(out, 0);
        out[HEADER - 1] = (byte) body.length;
        System.arraycopy(body, 0, out, HEADER, body.length);
        return out;
    }

    /** Whether a datagram of {@code length} bytes is an IPMI v1.5 packet without authentication. */
    public static boolean matches(byte[] datagram, int length) {
        return Rmcp.fits(datagram, length) && length > Rmcp.LENGTH && (datagram[Rmcp.LENGTH] & 0xFF) == AUTH_TYPE_NONE;
    }

    /**
     * The message in a datagram of {@code length} bytes.
     *
     * @throws MalformedPacketException if the datagram is short, authenticated or inside a session
     */
    public static IpmiMessage decode(byte[] datagram, int length) {
        Rmcp.check(datagram, length);
        MalformedPacketException.require(length > HEADER, "IPMI v1.5 header", Rmcp.LENGTH,
                () -> length + " bytes, the header alone needs " + HEADER);
        MalformedPacketException.require((datagram[Rmcp.LENGTH] & 0xFF) == AUTH_TYPE_NONE, "auth type",
                Rmcp.LENGTH, () -> "expected 0x00 (none) outside a session");
        MalformedPacketException.require(SessionHeader.readLe32(datagram, Rmcp.LENGTH + 5) == 0, "session id",
                Rmcp.LENGTH + 5, () -> "expected 0 outside a session");
        int messageLength = datagram[HEADER - 1] & 0xFF;
        MalformedPacketException.require(HEADER + messageLength <= length, "message length", HEADER - 1,
                () -> "says " + messageLength + " bytes but " + (length - HEADER) + " follow");
        return IpmiMessage.decode(datagram, HEADER, messageLength);
    }
}
