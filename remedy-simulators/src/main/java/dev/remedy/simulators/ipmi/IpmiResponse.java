package dev.remedy.simulators.ipmi;

/**
 * The BMC's answer to a request: completion code and the data after it.
 *
 * @param completionCode 0 for success, otherwise an IPMI completion code (0xC1 invalid command, ...)
 * @param data the response data after the completion code
 */
record IpmiResponse(int completionCode, byte[] data) {

    static final int OK = 0x00;
    static final int NODE_BUSY = 0xC0;
    static final int INVALID_COMMAND = 0xC1;
    static final int REQUEST_DATA_LENGTH_INVALID = 0xC7;
    static final int INVALID_DATA_FIELD = 0xCC;
    static final int INSUFFICIENT_PRIVILEGE = 0xD4;
    static final int NOT_SUPPORTED_IN_PRESENT_STATE = 0xD5;
    /** Set Session Privilege Level: requested level not available for this user. */
    static final int LEVEL_NOT_AVAILABLE_FOR_USER = 0x80;
    /** Set Session Privilege Level: requested level exceeds the channel or session limit. */
    static final int LEVEL_EXCEEDS_LIMIT = 0x81;
    /** Close Session: invalid session id in request. */
    static final int INVALID_SESSION_ID = 0x87;

    private static final byte[] NONE = new byte[0];

    static IpmiResponse ok(byte... data) {
        return new IpmiResponse(OK, data);
    }

    static IpmiResponse error(int completionCode) {
        return new IpmiResponse(completionCode, NONE);
    }
}
