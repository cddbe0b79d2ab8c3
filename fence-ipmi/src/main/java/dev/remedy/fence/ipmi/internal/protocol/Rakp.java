package dev.remedy.fence.ipmi.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The four RAKP messages of the RMCP+ key exchange (IPMI v2.0 §13.20 to §13.23), as payloads. */
public final class Rakp {

    private Rakp() {
    }

    /**
     * RAKP 1, console to BMC: the console's random number, the requested role and the user name.
     *
     * @param consoleRandom Rm, 16 bytes
     * @param role RoleM: the privilege code plus {@link RakpExchange#NAME_ONLY_LOOKUP} if set
     */
    public record Message1(int tag, int bmcSessionId, byte[] consoleRandom, int role, String userName) {

        /** Copies the random number. */
        public Message1 {
            consoleRandom = consoleRandom.clone();
        }

        /** The payload bytes. */
        public byte[] encode() {
            byte[] name = userName.getBytes(StandardCharsets.US_ASCII);
            byte[] out = new byte[28 + name.length];
            out[0] = (byte) tag;
            SessionHeader.writeLe32(out, 4, bmcSessionId);
            System.arraycopy(consoleRandom, 0, out, 8, RakpExchange.RANDOM_LENGTH);
            out[24] = (byte) role;
            out[27] = (byte) name.length;
            System.arraycopy(name, 0, out, 28, name.length);
            return out;
        }
    }

    /**
     * RAKP 2, BMC to console: the BMC's random number, its GUID and its proof that it knows the password.
     *
     * @param status an {@link RmcpPlusStatus} code; on an error the other fields may be empty and the console
     *     session id 0 (some BMCs send only tag and status)
     */
    public record Message2(int tag, int status, int consoleSessionId, byte[] bmcRandom, byte[] bmcGuid,
            byte[] authCode) {

        /**
         * Reads a RAKP 2 payload whose auth code is {@code authCodeLength} bytes.
         *
         * @throws MalformedPacketException if it is short
         */
        public static Message2 decode(byte[] payload, int authCodeLength) {
            MalformedPacketException.require(payload.length >= 2, "RAKP 2", 0,
                    () -> payload.length + " bytes, at least tag and status are needed");
            int status = payload[1] & 0xFF;
            int console = OpenSession.consoleIdOf(payload);
            if (status != RmcpPlusStatus.OK) {
                return new Message2(payload[0] & 0xFF, status, console, new byte[0], new byte[0], new byte[0]);
            }
            MalformedPacketException.require(payload.length >= 40 + authCodeLength, "RAKP 2", 0,
                    () -> payload.length + " bytes, " + (40 + authCodeLength) + " are needed for this cipher suite");
            return new Message2(payload[0] & 0xFF, status, console, Arrays.copyOfRange(payload, 8, 24),
                    Arrays.copyOfRange(payload, 24, 40), Arrays.copyOfRange(payload, 40, 40 + authCodeLength));
        }
    }

    /**
     * RAKP 3, console to BMC: the console's proof that it knows the password, or an error status that tells the
     * BMC to drop the half-open session.
     */
    public record Message3(int tag, int status, int bmcSessionId, byte[] authCode) {

        /** Copies the auth code. */
        public Message3 {
            authCode = authCode.clone();
        }

        /** The payload bytes. */
        public byte[] encode() {
            byte[] out = new byte[8 + authCode.length];
            out[0] = (byte) tag;
            out[1] = (byte) status;
            SessionHeader.writeLe32(out, 4, bmcSessionId);
            System.arraycopy(authCode, 0, out, 8, authCode.length);
            return out;
        }
    }

    /** RAKP 4, BMC to console: the BMC's proof that it derived the same session integrity key. */
    public record Message4(int tag, int status, int consoleSessionId, byte[] integrityCheckValue) {

        /**
         * Reads a RAKP 4 payload whose check value is {@code icvLength} bytes.
         *
         * @throws MalformedPacketException if it is short
         */
        public static Message4 decode(byte[] payload, int icvLength) {
            MalformedPacketException.require(payload.length >= 2, "RAKP 4", 0,
                    () -> payload.length + " bytes, at least tag and status are needed");
            int status = payload[1] & 0xFF;
            int console = OpenSession.consoleIdOf(payload);
            if (status != RmcpPlusStatus.OK) {
                return new Message4(payload[0] & 0xFF, status, console, new byte[0]);
            }
            MalformedPacketException.require(payload.length >= 8 + icvLength, "RAKP 4", 0,
                    () -> payload.length + " bytes, " + (8 + icvLength) + " are needed for this cipher suite");
            return new Message4(payload[0] & 0xFF, status, console, Arrays.copyOfRange(payload, 8, 8 + icvLength));
        }
    }
}
