package dev.remedy.simulators.ipmi;

import java.util.Optional;
import java.util.Set;

/**
 * The RMCP+ cipher suites the simulator implements (IPMI v2.0 table 22-20): authentication (RAKP) none,
 * HMAC-SHA1 or HMAC-SHA256; integrity none, HMAC-SHA1-96 or HMAC-SHA256-128; confidentiality none or
 * AES-CBC-128. The MD5 based suites are left out on purpose (insecure, and no client needs them here).
 */
enum CipherSuite {
    SUITE_0(0, Hash.NONE, Hash.NONE, false),
    SUITE_1(1, Hash.SHA1, Hash.NONE, false),
    SUITE_2(2, Hash.SHA1, Hash.SHA1, false),
    SUITE_3(3, Hash.SHA1, Hash.SHA1, true),
    SUITE_15(15, Hash.SHA256, Hash.NONE, false),
    SUITE_16(16, Hash.SHA256, Hash.SHA256, false),
    SUITE_17(17, Hash.SHA256, Hash.SHA256, true);

    /** Authentication algorithm numbers (table 13-17). */
    static final int AUTH_NONE = 0;
    static final int AUTH_HMAC_SHA1 = 1;
    static final int AUTH_HMAC_SHA256 = 3;
    /** Integrity algorithm numbers (table 13-18). */
    static final int INTEGRITY_NONE = 0;
    static final int INTEGRITY_HMAC_SHA1_96 = 1;
    static final int INTEGRITY_HMAC_SHA256_128 = 4;
    /** Confidentiality algorithm numbers (table 13-19). */
    static final int CONFIDENTIALITY_NONE = 0;
    static final int CONFIDENTIALITY_AES_CBC_128 = 1;

    /** The suite ids a {@link BmcSpec} may enable. */
    static final Set<Integer> IDS = Set.of(0, 1, 2, 3, 15, 16, 17);

    /** A hash of the HMACs: the JCA name, the full MAC length and the length kept for check values. */
    enum Hash {
        NONE(null, 0, 0),
        SHA1("HmacSHA1", 20, 12),
        SHA256("HmacSHA256", 32, 16);

        final String jcaName;
        final int macLength;
        final int truncatedLength;

        Hash(String jcaName, int macLength, int truncatedLength) {
            this.jcaName = jcaName;
            this.macLength = macLength;
            this.truncatedLength = truncatedLength;
        }
    }

    final int id;
    /** The RAKP HMAC (RAKP 2/3 codes, SIK, K1, K2, RAKP 4 check value). */
    final Hash authentication;
    /** The packet integrity HMAC, keyed with K1 and truncated. */
    final Hash integrity;
    /** Whether payloads are AES-CBC-128 encrypted with the first 16 bytes of K2. */
    final boolean encrypted;

    CipherSuite(int id, Hash authentication, Hash integrity, boolean encrypted) {
        this.id = id;
        this.authentication = authentication;
        this.integrity = integrity;
        this.encrypted = encrypted;
    }

    int authenticationAlgorithm() {
        return switch (authentication) {
            case NONE -> AUTH_NONE;
            case SHA1 -> AUTH_HMAC_SHA1;
            case SHA256 -> AUTH_HMAC_SHA256;
        };
    }

    int integrityAlgorithm() {
        return switch (integrity) {
            case NONE -> INTEGRITY_NONE;
            case SHA1 -> INTEGRITY_HMAC_SHA1_96;
            case SHA256 -> INTEGRITY_HMAC_SHA256_128;
        };
    }

    int confidentialityAlgorithm() {
        return encrypted ? CONFIDENTIALITY_AES_CBC_128 : CONFIDENTIALITY_NONE;
    }

    /** The suite with this id, if implemented. */
    static Optional<CipherSuite> byId(int id) {
        for (CipherSuite suite : values()) {
            if (suite.id == id) {
                return Optional.of(suite);
            }
        }
        return Optional.empty();
    }

    static boolean knownAuthentication(int algorithm) {
        return algorithm == AUTH_NONE || algorithm == AUTH_HMAC_SHA1 || algorithm == AUTH_HMAC_SHA256;
    }

    static boolean knownIntegrity(int algorithm) {
        return algorithm == INTEGRITY_NONE || algorithm == INTEGRITY_HMAC_SHA1_96
                || algorithm == INTEGRITY_HMAC_SHA256_128;
    }

    static boolean knownConfidentiality(int algorithm) {
        return algorithm == CONFIDENTIALITY_NONE || algorithm == CONFIDENTIALITY_AES_CBC_128;
    }

    boolean matches(int authenticationAlgorithm, int integrityAlgorithm, int confidentialityAlgorithm) {
        return authenticationAlgorithm() == authenticationAlgorithm && integrityAlgorithm() == integrityAlgorithm
                && confidentialityAlgorithm() == confidentialityAlgorithm;
    }
}
