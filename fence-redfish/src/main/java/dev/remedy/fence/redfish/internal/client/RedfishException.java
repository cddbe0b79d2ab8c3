package dev.remedy.fence.redfish.internal.client;

import java.util.Objects;

/**
 * Why a Redfish request failed. The message names the service and resource and what to do; it never contains a
 * password or a session token.
 */
public final class RedfishException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The kinds of failure, each with its own remedy. */
    public enum Kind {
        /** No answer, or not all of it, within the deadline. */
        TIMEOUT,
        /** Connection refused, reset, name or TLS failure. */
        TRANSPORT,
        /** 401 or 403: the credentials or the session were refused. */
        AUTHENTICATION,
        /** 400 or 405: the service refused the request (an unsupported reset type, for example). */
        REFUSED,
        /** 404: the resource does not exist. */
        NOT_FOUND,
        /** 503 past the deadline, or a session limit reached. */
        UNAVAILABLE,
        /**
         * 5xx, a task that failed, or a malformed response: a body that is not the JSON expected, larger than the
         * limit, or a header or link that cannot be used.
         */
        SERVICE,
        /** The request was cancelled. */
        CANCELLED
    }

    private final Kind kind;
    private final int status;

    /**
     * @param status the HTTP status, or 0 when there was no response
     * @param message what went wrong, where, and what to do; never a secret
     */
    public RedfishException(Kind kind, int status, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.status = status;
    }

    /** A failure without an underlying cause. */
    public RedfishException(Kind kind, int status, String message) {
        this(kind, status, message, null);
    }

    /**
     * A malformed response: what the service sent is not what the Redfish specification and schemas say (kind
     * {@link Kind#SERVICE}).
     *
     * @param status the HTTP status of the response, or 0 if it does not matter
     * @param message what was wrong, in which resource and property, and what was found
     */
    public static RedfishException malformed(int status, String message, Throwable cause) {
        return new RedfishException(Kind.SERVICE, status, "malformed Redfish response: " + message, cause);
    }

    /** A malformed response without an underlying cause. */
    public static RedfishException malformed(int status, String message) {
        return malformed(status, message, null);
    }

    /** The kind of failure. */
    public Kind kind() {
        return kind;
    }

    /** The HTTP status, or 0 when there was no response. */
    public int status() {
        return status;
    }

    /** The kind an HTTP error status stands for. */
    static Kind kindOf(int status) {
        return switch (status) {
            case 401, 403 -> Kind.AUTHENTICATION;
            case 400, 405, 409 -> Kind.REFUSED;
            case 404 -> Kind.NOT_FOUND;
            case 503 -> Kind.UNAVAILABLE;
            default -> Kind.SERVICE;
        };
    }
}
