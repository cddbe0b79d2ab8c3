package dev.remedy.fence.ipmi.internal.protocol;

/** IPMI completion codes (IPMI v2.0 table 5-2): the first data byte of every response. */
public final class CompletionCode {

    /** Command completed normally. */
    public static final int OK = 0x00;
    /** Node busy: the command could not be processed now; try again. */
    public static final int BUSY = 0xC0;
    /** Invalid or unsupported command. */
    public static final int INVALID_COMMAND = 0xC1;
    /** Timeout while processing the command. */
    public static final int TIMEOUT = 0xC3;
    /** Request data field length limit exceeded or data invalid. */
    public static final int INVALID_DATA = 0xCC;
    /** Command not supported in the present state. */
    public static final int NOT_SUPPORTED_IN_STATE = 0xD5;
    /** Insufficient privilege level or other security restriction. */
    public static final int INSUFFICIENT_PRIVILEGE = 0xD4;
    /** Command sub-function disabled or unavailable. */
    public static final int SUB_FUNCTION_UNAVAILABLE = 0xD6;
    /** Set Session Privilege Level: requested level not available for this user. */
    public static final int PRIVILEGE_NOT_AVAILABLE = 0x81;
    /** Set Session Privilege Level: requested level exceeds the channel or user limit. */
    public static final int PRIVILEGE_EXCEEDS_LIMIT = 0x82;

    private CompletionCode() {
    }

    /** A short text for a code, with the code in hex. */
    public static String describe(int code) {
        String text = switch (code) {
            case OK -> "success";
            case BUSY -> "node busy";
            case INVALID_COMMAND -> "invalid or unsupported command";
            case 0xC2 -> "command invalid for this LUN";
            case TIMEOUT -> "timeout while processing the command";
            case 0xC4 -> "out of space";
            case 0xC5 -> "reservation cancelled";
            case 0xC6 -> "request data truncated";
            case 0xC7 -> "request data length invalid";
            case 0xC8 -> "request data field length limit exceeded";
            case 0xC9 -> "parameter out of range";
            case 0xCA -> "cannot return the requested number of bytes";
            case 0xCB -> "requested sensor, data or record not present";
            case INVALID_DATA -> "invalid data field in request";
            case 0xCD -> "command illegal for this sensor or record type";
            case 0xCE -> "command response could not be provided";
            case 0xCF -> "duplicated request";
            case 0xD0 -> "SDR repository in update mode";
            case 0xD1 -> "device in firmware update mode";
            case 0xD2 -> "BMC initialization in progress";
            case 0xD3 -> "destination unavailable";
            case INSUFFICIENT_PRIVILEGE -> "insufficient privilege level";
            case NOT_SUPPORTED_IN_STATE -> "not supported in the present state";
            case SUB_FUNCTION_UNAVAILABLE -> "sub-function disabled or unavailable";
            case 0xFF -> "unspecified error";
            default -> "command-specific error";
        };
        return String.format("%s (0x%02x)", text, code);
    }

    /** Whether the code says the BMC is temporarily unable to answer, so the same request may succeed later. */
    public static boolean isTransient(int code) {
        return code == BUSY || code == TIMEOUT || code == 0xCE || code == 0xD2;
    }

    /** Whether the code says the command or the requested function is not available on this BMC. */
    public static boolean isUnsupported(int code) {
        return code == INVALID_COMMAND || code == NOT_SUPPORTED_IN_STATE || code == SUB_FUNCTION_UNAVAILABLE;
    }

    /** Whether the code says the session lacks the privilege. */
    public static boolean isPrivilege(int code) {
        return code == INSUFFICIENT_PRIVILEGE || code == PRIVILEGE_NOT_AVAILABLE || code == PRIVILEGE_EXCEEDS_LIMIT;
    }
}
