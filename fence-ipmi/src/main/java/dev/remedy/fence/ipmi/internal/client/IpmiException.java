package dev.remedy.fence.ipmi.internal.client;

import java.util.Objects;

/**
 * Why an IPMI exchange with a BMC failed. The message names the BMC's address and what to do; it never
 * contains a password, a BMC key or session key material.
 */
public final class IpmiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The kinds of failure, each with its own remedy. */
    public enum Kind {
        /** No answer within the deadline: wrong address or port, BMC down, lanplus disabled, or a firewall. */
        TIMEOUT,
        /** The BMC refused the user name, the password or the BMC key. */
        AUTHENTICATION,
        /** The user or session lacks the privilege for the command. */
        PRIVILEGE,
        /** The BMC does not implement the command, the cipher suite or IPMI v2.0. */
        UNSUPPORTED,
        /** The BMC is busy or out of session slots; the same request may work later. */
        BUSY,
        /** The BMC answered with an error or something this client cannot read. */
        PROTOCOL,
        /** The operation was cancelled or the client closed. */
        CANCELLED
    }

    private final Kind kind;
    private final String bmc;

    /**
     * @param bmc the BMC's address as {@code host:port}
     * @param message what went wrong and what to do; never a secret
     */
    public IpmiException(Kind kind, String bmc, String message) {
        this(kind, bmc, message, null);
    }

    /** A failure with its cause (a malformed answer, for example). */
    public IpmiException(Kind kind, String bmc, String message, Throwable cause) {
        super("BMC " + bmc + ": " + message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.bmc = Objects.requireNonNull(bmc, "bmc");
    }

    /** The kind of failure. */
    public Kind kind() {
        return kind;
    }

    /** The BMC's address as {@code host:port}. */
    public String bmc() {
        return bmc;
    }
}
