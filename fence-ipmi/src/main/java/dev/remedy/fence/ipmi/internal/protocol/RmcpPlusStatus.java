package dev.remedy.fence.ipmi.internal.protocol;

/**
 * RMCP+ and RAKP message status codes (IPMI v2.0 table 13-15), as the BMC reports them in the Open Session
 * Response, RAKP 2 and RAKP 4.
 */
public final class RmcpPlusStatus {

    /** No errors. */
    public static final int OK = 0x00;
    /** Insufficient resources to create a session: the BMC has no free session slot. */
    public static final int NO_RESOURCES = 0x01;
    /** Invalid session id. */
    public static final int INVALID_SESSION_ID = 0x02;
    /** Invalid authentication algorithm. */
    public static final int INVALID_AUTHENTICATION_ALGORITHM = 0x04;
    /** Invalid integrity algorithm. */
    public static final int INVALID_INTEGRITY_ALGORITHM = 0x05;
    /** Invalid role. */
    public static final int INVALID_ROLE = 0x09;
    /** Unauthorized role or privilege level requested. */
    public static final int UNAUTHORIZED_ROLE = 0x0A;
    /** Insufficient resources to create a session at the requested role. */
    public static final int NO_RESOURCES_FOR_ROLE = 0x0B;
    /** Unauthorized name. */
    public static final int UNAUTHORIZED_NAME = 0x0D;
    /** Invalid integrity check value. */
    public static final int INVALID_INTEGRITY_CHECK_VALUE = 0x0F;
    /** Invalid confidentiality algorithm. */
    public static final int INVALID_CONFIDENTIALITY_ALGORITHM = 0x10;
    /** No cipher suite match with proposed security algorithms. */
    public static final int NO_CIPHER_SUITE_MATCH = 0x11;

    private static final String[] TEXTS = {
        "no errors", "insufficient resources to create a session", "invalid session id", "invalid payload type",
        "invalid authentication algorithm", "invalid integrity algorithm", "no matching authentication payload",
        "no matching integrity payload", "inactive session id", "invalid role",
        "unauthorized role or privilege level requested", "insufficient resources to create a session at the "
                + "requested role", "invalid name length", "unauthorized name", "unauthorized GUID",
        "invalid integrity check value", "invalid confidentiality algorithm",
        "no cipher suite match with proposed security algorithms", "illegal or unrecognized parameter",
    };

    private RmcpPlusStatus() {
    }

    /** The text of a status code, with the code in hex. */
    public static String describe(int code) {
        String text = code >= 0 && code < TEXTS.length ? TEXTS[code] : "unknown status";
        return String.format("%s (0x%02x)", text, code);
    }

    /** Whether the code says the BMC does not accept the proposed algorithms, so another suite may work. */
    public static boolean isCipherMismatch(int code) {
        return code == INVALID_AUTHENTICATION_ALGORITHM || code == INVALID_INTEGRITY_ALGORITHM
                || code == INVALID_CONFIDENTIALITY_ALGORITHM || code == NO_CIPHER_SUITE_MATCH;
    }
}
