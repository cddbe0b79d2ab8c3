package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Function;

/**
 * Test support for the decoder properties: the protection a receiver applies, datagrams as received, and what the
 * client reads from a datagram, decoder by decoder, in the order the event loop, the handshake and the session read
 * it.
 */
final class Received {

    private Received() {
    }

    /**
     * The protection a receiver applies. During session setup nothing is protected, but the negotiated suite
     * decides the length of the RAKP 2 auth code and the RAKP 4 check value; once a session is established with
     * suite 3 or 17, every packet is authenticated with K1 and encrypted with the AES key.
     */
    record Keys(CipherSuite suite, boolean established, byte[] k1, byte[] aes) {

        static Keys setup(CipherSuite suite) {
            return new Keys(suite, false, new byte[0], new byte[0]);
        }

        /** A session without integrity or confidentiality (suite 0). */
        static Keys clear() {
            return new Keys(CipherSuite.SUITE_0, true, new byte[0], new byte[0]);
        }

        boolean protectedPackets() {
            return established && !suite.insecure();
        }

        Integrity integrity() {
            return protectedPackets() ? new Integrity(suite.integrity(), k1) : null;
        }

        /** Confidentiality drawing its IVs from {@code iv} (repeated as needed). */
        Confidentiality confidentiality(byte[] iv) {
            return protectedPackets() ? new Confidentiality(aes, Hex.fixed(iv.length == 0 ? new byte[1] : iv)) : null;
        }

        @Override
        public String toString() {
            return "Keys[suite " + suite.id() + (established ? ", session" : ", setup") + "]";
        }
    }

    /** A datagram as received: {@code bytes} with what it was built as and the protection it is read with. */
    record Datagram(String kind, Keys keys, byte[] bytes) {

        Datagram with(byte[] other) {
            return new Datagram(kind, keys, other);
        }

        @Override
        public String toString() {
            return kind + " (" + keys + ", " + bytes.length + " bytes) " + HexFormat.of().formatHex(bytes);
        }
    }

    /**
     * The framing of the first {@code length} bytes of {@code datagram}: the session-less packet's IPMI message, or
     * the RMCP+ packet with its integrity checked and its payload decrypted.
     *
     * @throws MalformedPacketException if the framing is wrong
     */
    static Object frame(byte[] datagram, int length, Keys keys) {
        if (SessionlessPacket.matches(datagram, length)) {
            return SessionlessPacket.decode(datagram, length);
        }
        return LanplusPacket.decode(datagram, length, keys.confidentiality(new byte[16]), keys.integrity());
    }

    /**
     * Everything the client reads from the first {@code length} bytes of {@code datagram}: routing, then the
     * session-less packet or the RMCP+ packet, its setup reply or IPMI message, the completion code and the data of
     * a Get Channel Authentication Capabilities or Get Chassis Status response.
     *
     * @return the innermost value read
     * @throws MalformedPacketException if a decoder refuses the bytes
     */
    static Object read(byte[] datagram, int length, Keys keys) {
        LanplusPacket.consoleSessionId(datagram, length);
        LanplusPacket.isSetupReply(datagram, length);
        if (SessionlessPacket.matches(datagram, length)) {
            return response(SessionlessPacket.decode(datagram, length), ChannelAuthCapabilities::decode);
        }
        LanplusPacket packet = LanplusPacket.decode(datagram, length, keys.confidentiality(new byte[16]),
                keys.integrity());
        byte[] payload = packet.payload();
        return switch (packet.header().payloadType()) {
            case OPEN_SESSION_RESPONSE -> OpenSession.Response.decode(payload);
            case RAKP_2 -> Rakp.Message2.decode(payload, keys.suite().authentication().macLength());
            case RAKP_4 -> Rakp.Message4.decode(payload, keys.suite().authentication().icvLength());
            case IPMI_MESSAGE -> response(packet.ipmiMessage(), ChassisStatus::decode);
            default -> packet;
        };
    }

    /** The completion code of a response with data and, if it is OK, the data after it read by {@code decoder}. */
    private static Object response(IpmiMessage message, Function<byte[], Object> decoder) {
        byte[] data = message.data();
        if (!message.isResponse() || data.length == 0) {
            return message;
        }
        int code = message.completionCode();
        String text = CompletionCode.describe(code);
        return code == CompletionCode.OK ? decoder.apply(Arrays.copyOfRange(data, 1, data.length)) : text;
    }
}
