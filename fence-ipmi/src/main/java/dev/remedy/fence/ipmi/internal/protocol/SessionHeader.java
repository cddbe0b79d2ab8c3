package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Objects;

/**
 * The 12-byte IPMI v2.0 session header (OEM fields absent): auth type 0x06 (RMCP+), payload type byte (bit 7
 * encrypted, bit 6 authenticated, low six bits the type), session id, session sequence number (both 4 bytes
 * little-endian) and payload length (2 bytes little-endian; for encrypted payloads the length of IV and
 * ciphertext).
 *
 * @param sessionId the receiver's session id (0 before the session is open)
 * @param sequenceNumber the session sequence number (0 outside a session)
 * @param payloadLength 0 to 65535
 */
public record SessionHeader(PayloadType payloadType, boolean encrypted, boolean authenticated, int sessionId,
        int sequenceNumber, int payloadLength) {

    /** Header length in bytes. */
    public static final int LENGTH = 12;
    /** Auth type / format byte for RMCP+. */
    public static final int AUTH_TYPE_RMCP_PLUS = 0x06;

    private static final int ENCRYPTED = 0x80;
    private static final int AUTHENTICATED = 0x40;

    /** Validates the payload length. */
    public SessionHeader {
        Objects.requireNonNull(payloadType, "payloadType");
        if (payloadLength < 0 || payloadLength > 0xFFFF) {
            throw new IllegalArgumentException("payloadLength must be 0..65535, was " + payloadLength);
        }
    }

    /** Writes the header at {@code offset}. */
    public void write(byte[] out, int offset) {
        out[offset] = AUTH_TYPE_RMCP_PLUS;
        out[offset + 1] = (byte) ((encrypted ? ENCRYPTED : 0) | (authenticated ? AUTHENTICATED : 0)
                | payloadType.code());
        writeLe32(out, offset + 2, sessionId);
        writeLe32(out, offset + 6, sequenceNumber);
        out[offset + 10] = (byte) payloadLength;
        out[offset + 11] = (byte) (payloadLength >>> 8);
    }

    /**
     * Reads a header at {@code offset} of a datagram of {@code length} bytes.
     *
     * @throws MalformedPacketException if it is short, not RMCP+, or of an unsupported payload type
     */
    public static SessionHeader read(byte[] datagram, int offset, int length) {
        MalformedPacketException.require(length - offset >= LENGTH, "session header", offset,
                () -> (length - offset) + " bytes left, the IPMI v2.0 session header needs " + LENGTH);
        int authType = datagram[offset] & 0xFF;
        MalformedPacketException.require(authType == AUTH_TYPE_RMCP_PLUS, "auth type", offset,
                () -> String.format("expected 0x06 (RMCP+), got 0x%02x", authType));
        int typeByte = datagram[offset + 1] & 0xFF;
        PayloadType type;
        try {
            type = PayloadType.of(typeByte & 0x3F);
        } catch (IllegalArgumentException e) {
            throw new MalformedPacketException("payload type", offset + 1, e.getMessage());
        }
        int payloadLength = (datagram[offset + 10] & 0xFF) | (datagram[offset + 11] & 0xFF) << 8;
        return new SessionHeader(type, (typeByte & ENCRYPTED) != 0, (typeByte & AUTHENTICATED) != 0,
                readLe32(datagram, offset + 2), readLe32(datagram, offset + 6), payloadLength);
    }

    /** This header with another payload length. */
    public SessionHeader withPayloadLength(int length) {
        return new SessionHeader(payloadType, encrypted, authenticated, sessionId, sequenceNumber, length);
    }

    static void writeLe32(byte[] out, int offset, int value) {
        out[offset] = (byte) value;
        out[offset + 1] = (byte) (value >>> 8);
        out[offset + 2] = (byte) (value >>> 16);
        out[offset + 3] = (byte) (value >>> 24);
    }

    static int readLe32(byte[] in, int offset) {
        return (in[offset] & 0xFF) | (in[offset + 1] & 0xFF) << 8 | (in[offset + 2] & 0xFF) << 16
                | (in[offset + 3] & 0xFF) << 24;
    }

    @Override
    public String toString() {
        return String.format("SessionHeader[%s%s%s, session=0x%08x, seq=%d, length=%d]", payloadType,
                encrypted ? ", encrypted" : "", authenticated ? ", authenticated" : "", sessionId,
                Integer.toUnsignedLong(sequenceNumber), payloadLength);
    }
}
