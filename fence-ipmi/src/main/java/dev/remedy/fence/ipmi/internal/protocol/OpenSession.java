package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Optional;

/** The RMCP+ Open Session Request and Response payloads (IPMI v2.0 §13.17 and §13.18). */
public final class OpenSession {

    private static final int ALGORITHM_PAYLOAD = 8;

    private OpenSession() {
    }

    /**
     * The request: the console proposes one algorithm of each kind, which is how a cipher suite is asked for.
     *
     * @param tag echoed by the BMC to match the response
     * @param maxPrivilege 0 for the highest level the BMC allows, else a {@link Privilege} code
     * @param consoleSessionId SIDm, chosen by the console, never 0
     */
    public record Request(int tag, int maxPrivilege, int consoleSessionId, CipherSuite suite) {

        /** Length of the encoded request. */
        public static final int LENGTH = 32;

        /** The payload bytes. */
        public byte[] encode() {
            byte[] out = new byte[LENGTH];
            out[0] = (byte) tag;
            out[1] = (byte) maxPrivilege;
            SessionHeader.writeLe32(out, 4, consoleSessionId);
            writeAlgorithm(out, 8, 0, suite.authentication().code());
            writeAlgorithm(out, 16, 1, suite.integrity().code());
            writeAlgorithm(out, 24, 2, suite.confidentiality().code());
            return out;
        }

        private static void writeAlgorithm(byte[] out, int offset, int type, int algorithm) {
            out[offset] = (byte) type;
            out[offset + 3] = ALGORITHM_PAYLOAD;
            out[offset + 4] = (byte) algorithm;
        }
    }

    /**
     * The response. On an error status the BMC may send only the first eight bytes, or (ipmi_sim) only tag and
     * status; absent ids and algorithms are then 0.
     *
     * @param status an {@link RmcpPlusStatus} code
     * @param bmcSessionId SIDc, the id the console puts in every later packet
     */
    public record Response(int tag, int status, int maxPrivilege, int consoleSessionId, int bmcSessionId,
            int authentication, int integrity, int confidentiality) {

        /**
         * Reads a response payload.
         *
         * @throws MalformedPacketException if it is short
         */
        public static Response decode(byte[] payload) {
            MalformedPacketException.require(payload.length >= 2, "Open Session Response", 0,
                    () -> payload.length + " bytes, at least tag and status are needed");
            int status = payload[1] & 0xFF;
            if (status != RmcpPlusStatus.OK) {
                return new Response(payload[0] & 0xFF, status, payload.length > 2 ? payload[2] & 0xFF : 0,
                        consoleIdOf(payload), 0, 0, 0, 0);
            }
            MalformedPacketException.require(payload.length >= 36, "Open Session Response", 0,
                    () -> payload.length + " bytes, a successful response has 36");
            return new Response(payload[0] & 0xFF, status, payload[2] & 0xFF, SessionHeader.readLe32(payload, 4),
                    SessionHeader.readLe32(payload, 8), payload[16] & 0xFF, payload[24] & 0xFF, payload[32] & 0xFF);
        }

        /**
         * The suite of the algorithms the BMC chose, which some BMCs pick whatever was proposed; empty if they form
         * no suite this client speaks.
         */
        public Optional<CipherSuite> suite() {
            return CipherSuite.ofAlgorithms(authentication, integrity, confidentiality);
        }

        /** The algorithms the BMC chose, by name, for messages. */
        public String describeAlgorithms() {
            return CipherSuite.describeAlgorithms(authentication, integrity, confidentiality);
        }
    }

    /** The console session id at bytes 4 to 7 of a setup reply, or 0 if the reply is too short to carry it. */
    static int consoleIdOf(byte[] payload) {
        return payload.length >= 8 ? SessionHeader.readLe32(payload, 4) : 0;
    }
}
