package dev.remedy.fence.snmp.internal.session;

/** A request that did not get a usable answer; the message says which device and what to do, never a secret. */
public final class SnmpException extends Exception {

    /** What went wrong. */
    public enum Kind {
        /** No answer within the retries. */
        NO_ANSWER,
        /** The action's deadline passed. */
        DEADLINE,
        /** SNMPv3 authentication or privacy failed (a report from the device). */
        AUTHENTICATION,
        /** The device answered with an error status (noAccess, notWritable, wrongValue...). */
        REFUSED,
        /** The device does not have the OID. */
        NO_SUCH_OBJECT,
        /** The local side failed (a socket, a malformed message). */
        LOCAL
    }

    private final Kind kind;

    /** An exception of {@code kind}. */
    public SnmpException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    /** An exception of {@code kind} with its cause (whose message holds no secret). */
    public SnmpException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** What went wrong. */
    public Kind kind() {
        return kind;
    }
}
