package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Arrays;
import java.util.Objects;

/**
 * A whole RMCP+ datagram: RMCP header, session header, payload and, for authenticated packets, the integrity
 * trailer. {@link #encode} and {@link #decode} apply a session's {@link Confidentiality} and {@link Integrity}:
 * pass {@code null} for either before the session is established. Once a session has them, a received packet
 * that is not encrypted or not authenticated is refused, so that a forged cleartext reply cannot slip through.
 *
 * @param header the session header as on the wire (its payload length counts IV and ciphertext if encrypted)
 * @param payload the plaintext payload (copied in and out)
 */
public record LanplusPacket(SessionHeader header, byte[] payload) {

    /** Copies the payload. */
    public LanplusPacket {
        Objects.requireNonNull(header, "header");
        payload = Objects.requireNonNull(payload, "payload").clone();
    }

    /** The plaintext payload (a copy). */
    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /**
     * Builds a datagram.
     *
     * @param confidentiality encrypts the payload if not {@code null}
     * @param integrity appends the integrity trailer if not {@code null}
     */
    public static byte[] encode(PayloadType type, int sessionId, int sequenceNumber, byte[] payload,
            Confidentiality confidentiality, Integrity integrity) {
        byte[] body = confidentiality == null ? payload.clone() : confidentiality.encrypt(payload);
        SessionHeader header = new SessionHeader(type, confidentiality != null, integrity != null, sessionId,
                sequenceNumber, body.length);
        byte[] session = new byte[SessionHeader.LENGTH + body.length];
        header.write(session, 0);
        System.arraycopy(body, 0, session, SessionHeader.LENGTH, body.length);
        if (integrity != null) {
            session = integrity.seal(session);
        }
        byte[] out = new byte[Rmcp.LENGTH + session.length];
        Rmcp.write(out, 0);
        System.arraycopy(session, 0, out, Rmcp.LENGTH, session.length);
        return out;
    }

    /**
     * Reads the first {@code length} bytes of a received datagram.
     *
     * @throws MalformedPacketException if the datagram is short or corrupt, fails its integrity check, or lacks
     *     the protection the session requires
     */
    public static LanplusPacket decode(byte[] datagram, int length, Confidentiality confidentiality,
            Integrity integrity) {
        Rmcp.check(datagram, length);
        SessionHeader header = SessionHeader.read(datagram, Rmcp.LENGTH, length);
        int payloadOffset = Rmcp.LENGTH + SessionHeader.LENGTH;
        int payloadEnd = payloadOffset + header.payloadLength();
        MalformedPacketException.require(payloadEnd <= length, "payload length", Rmcp.LENGTH + 10,
                () -> "says " + header.payloadLength() + " bytes but only " + (length - payloadOffset) + " follow");
        MalformedPacketException.require(header.authenticated() == (integrity != null), "payload type",
                Rmcp.LENGTH + 1,
                () -> header.authenticated() ? "packet is authenticated but no session integrity key is set"
                        : "session requires authenticated packets but this one is not");
        MalformedPacketException.require(header.encrypted() == (confidentiality != null), "payload type",
                Rmcp.LENGTH + 1,
                () -> header.encrypted() ? "packet is encrypted but no session confidentiality key is set"
                        : "session requires encrypted packets but this one is not");
        if (integrity != null) {
            byte[] opened = integrity.open(Arrays.copyOfRange(datagram, Rmcp.LENGTH, length), Rmcp.LENGTH);
            MalformedPacketException.require(opened.length == SessionHeader.LENGTH + header.payloadLength(),
                    "payload length", Rmcp.LENGTH + 10, () -> "says " + header.payloadLength()
                            + " bytes but the integrity trailer leaves " + (opened.length - SessionHeader.LENGTH));
        } else {
            MalformedPacketException.require(payloadEnd == length, "payload length", Rmcp.LENGTH + 10,
                    () -> "says " + header.payloadLength() + " bytes but " + (length - payloadOffset) + " follow");
        }
        byte[] body = Arrays.copyOfRange(datagram, payloadOffset, payloadEnd);
        byte[] payload = confidentiality == null ? body : confidentiality.decrypt(body, payloadOffset);
        return new LanplusPacket(header, payload);
    }

    /**
     * The remote console's session id a received RMCP+ datagram belongs to: the session header's id, or for the
     * Open Session Response and RAKP 2 and 4 (sent before the session exists, with id 0 in the header) the id in
     * their body. Returns 0 for anything else, including setup replies too short to carry the id.
     */
    public static int consoleSessionId(byte[] datagram, int length) {
        int header = Rmcp.LENGTH;
        if (!Rmcp.fits(datagram, length) || length < header + SessionHeader.LENGTH
                || (datagram[header] & 0xFF) != SessionHeader.AUTH_TYPE_RMCP_PLUS) {
            return 0;
        }
        int sessionId = SessionHeader.readLe32(datagram, header + 2);
        if (sessionId != 0) {
            return sessionId;
        }
        int idOffset = header + SessionHeader.LENGTH + 4;
        return isSetupReply(datagram, length) && length >= idOffset + 4 ? SessionHeader.readLe32(datagram, idOffset)
                : 0;
    }

    /**
     * Whether a received datagram is an Open Session Response, RAKP 2 or RAKP 4: the replies a BMC sends before
     * a session exists, which (when they report an error) may be too short to carry the console session id.
     */
    public static boolean isSetupReply(byte[] datagram, int length) {
        int header = Rmcp.LENGTH;
        if (!Rmcp.fits(datagram, length) || length < header + SessionHeader.LENGTH
                || (datagram[header] & 0xFF) != SessionHeader.AUTH_TYPE_RMCP_PLUS
                || SessionHeader.readLe32(datagram, header + 2) != 0) {
            return false;
        }
        int type = datagram[header + 1] & 0x3F;
        return type == PayloadType.OPEN_SESSION_RESPONSE.code() || type == PayloadType.RAKP_2.code()
                || type == PayloadType.RAKP_4.code();
    }

    /** The payload read as an IPMI message. */
    public IpmiMessage ipmiMessage() {
        if (header.payloadType() != PayloadType.IPMI_MESSAGE) {
            throw new IllegalStateException("payload type is " + header.payloadType() + ", not IPMI_MESSAGE");
        }
        return IpmiMessage.decode(payload, 0, payload.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LanplusPacket p && header.equals(p.header) && Arrays.equals(payload, p.payload);
    }

    @Override
    public int hashCode() {
        return header.hashCode() * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "LanplusPacket[" + header + ", " + payload.length + " payload bytes]";
    }
}
