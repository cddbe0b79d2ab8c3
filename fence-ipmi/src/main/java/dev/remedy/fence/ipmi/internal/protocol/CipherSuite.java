package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Optional;

/**
 * The RMCP+ cipher suites this client speaks (IPMI v2.0 table 22-20). Suite 0 has no authentication, integrity
 * or confidentiality and is {@link #insecure()}: it exists so that it can be recognised and refused.
 */
public enum CipherSuite {
    /** No authentication, integrity or confidentiality. Insecure. */
    SUITE_0(0, Authentication.RAKP_NONE, IntegrityAlgorithm.NONE, ConfidentialityAlgorithm.NONE),
    /** RAKP-HMAC-SHA1, HMAC-SHA1-96, AES-CBC-128. */
    SUITE_3(3, Authentication.RAKP_HMAC_SHA1, IntegrityAlgorithm.HMAC_SHA1_96, ConfidentialityAlgorithm.AES_CBC_128),
    /** RAKP-HMAC-SHA256, HMAC-SHA256-128, AES-CBC-128. */
    SUITE_17(17, Authentication.RAKP_HMAC_SHA256, IntegrityAlgorithm.HMAC_SHA256_128,
            ConfidentialityAlgorithm.AES_CBC_128);

    private final int id;
    private final Authentication authentication;
    private final IntegrityAlgorithm integrity;
    private final ConfidentialityAlgorithm confidentiality;

    CipherSuite(int id, Authentication authentication, IntegrityAlgorithm integrity,
            ConfidentialityAlgorithm confidentiality) {
        this.id = id;
        this.authentication = authentication;
        this.integrity = integrity;
        this.confidentiality = confidentiality;
    }

    /** The cipher suite id as sent in Get Channel Cipher Suites and configured on the BMC. */
    public int id() {
        return id;
    }

    /** The RAKP key exchange authentication algorithm. */
    public Authentication authentication() {
        return authentication;
    }

    /** The session integrity algorithm. */
    public IntegrityAlgorithm integrity() {
        return integrity;
    }

    /** The session confidentiality algorithm. */
    public ConfidentialityAlgorithm confidentiality() {
        return confidentiality;
    }

    /** Whether the suite authenticates nobody: anyone on the network can then control the BMC. */
    public boolean insecure() {
        return authentication == Authentication.RAKP_NONE;
    }

    /**
     * The suite with {@code id}.
     *
     * @throws IllegalArgumentException if this client does not implement that suite
     */
    public static CipherSuite of(int id) {
        for (CipherSuite suite : values()) {
            if (suite.id == id) {
                return suite;
            }
        }
        throw new IllegalArgumentException("IPMI cipher suite " + id + " is not supported: use 3 or 17");
    }

    /** The suite of exactly these algorithm numbers (as an Open Session Response carries them), if any. */
    public static Optional<CipherSuite> ofAlgorithms(int authentication, int integrity,
            int confidentiality) {
        for (CipherSuite suite : values()) {
            if (suite.authentication.code == authentication && suite.integrity.code == integrity
                    && suite.confidentiality.code == confidentiality) {
                return Optional.of(suite);
            }
        }
        return Optional.empty();
    }

    /**
     * Names algorithm numbers for a message, e.g. "authentication RAKP-HMAC-SHA1, integrity HMAC-SHA1-96,
     * confidentiality AES-CBC-128"; a number this client does not know is shown in hexadecimal.
     */
    public static String describeAlgorithms(int authentication, int integrity, int confidentiality) {
        return "authentication " + name(Authentication.values(), authentication, "RAKP algorithm")
                + ", integrity " + name(IntegrityAlgorithm.values(), integrity, "integrity algorithm")
                + ", confidentiality " + name(ConfidentialityAlgorithm.values(), confidentiality,
                        "confidentiality algorithm");
    }

    private static String name(Coded[] known, int code, String kind) {
        for (Coded algorithm : known) {
            if (algorithm.code() == code) {
                return ((Enum<?>) algorithm).name().replace('_', '-');
            }
        }
        return "unknown " + kind + " 0x" + Integer.toHexString(code);
    }

    /** An algorithm with its number in Open Session messages. */
    private interface Coded {
        int code();
    }

    /** RAKP authentication algorithms, with the HMAC used for key exchange codes and key derivation. */
    public enum Authentication implements Coded {
        /** No authentication. */
        RAKP_NONE(0x00, null, 0, 0),
        /** HMAC-SHA1; the RAKP 4 check value is truncated to 12 bytes. */
        RAKP_HMAC_SHA1(0x01, "HmacSHA1", 20, 12),
        /** HMAC-SHA256; the RAKP 4 check value is truncated to 16 bytes. */
        RAKP_HMAC_SHA256(0x03, "HmacSHA256", 32, 16);

        private final int code;
        private final String jcaName;
        private final int macLength;
        private final int icvLength;

        Authentication(int code, String jcaName, int macLength, int icvLength) {
            this.code = code;
            this.jcaName = jcaName;
            this.macLength = macLength;
            this.icvLength = icvLength;
        }

        /** The algorithm number in the open session request. */
        public int code() {
            return code;
        }

        /** The JCA name of the HMAC, or {@code null} for {@link #RAKP_NONE}. */
        public String jcaName() {
            return jcaName;
        }

        /** The full HMAC length in bytes (also the length of the K1/K2 constants). */
        public int macLength() {
            return macLength;
        }

        /** The length in bytes of the RAKP 4 integrity check value. */
        public int icvLength() {
            return icvLength;
        }
    }

    /** Integrity algorithms, with the truncated AuthCode length. */
    public enum IntegrityAlgorithm implements Coded {
        /** No integrity. */
        NONE(0x00, null, 0),
        /** HMAC-SHA1 truncated to 12 bytes. */
        HMAC_SHA1_96(0x01, "HmacSHA1", 12),
        /** HMAC-SHA256 truncated to 16 bytes. */
        HMAC_SHA256_128(0x04, "HmacSHA256", 16);

        private final int code;
        private final String jcaName;
        private final int authCodeLength;

        IntegrityAlgorithm(int code, String jcaName, int authCodeLength) {
            this.code = code;
            this.jcaName = jcaName;
            this.authCodeLength = authCodeLength;
        }

        /** The algorithm number in the open session request. */
        public int code() {
            return code;
        }

        /** The JCA name of the HMAC, or {@code null} for {@link #NONE}. */
        public String jcaName() {
            return jcaName;
        }

        /** The AuthCode length in bytes. */
        public int authCodeLength() {
            return authCodeLength;
        }
    }

    /** Confidentiality algorithms. */
    public enum ConfidentialityAlgorithm implements Coded {
        /** No encryption. */
        NONE(0x00),
        /** AES-128 in CBC mode with a fresh IV per payload. */
        AES_CBC_128(0x01);

        private final int code;

        ConfidentialityAlgorithm(int code) {
            this.code = code;
        }

        /** The algorithm number in the open session request. */
        public int code() {
            return code;
        }
    }
}
