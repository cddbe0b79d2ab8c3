package dev.remedy.fence.ssh.internal.session;

import java.util.Objects;

/**
 * A failure to talk to a device over SSH, with its kind so the agent can map it to an outcome. Messages name the
 * device and what to do, and never hold a password or a key passphrase.
 */
public final class SshException extends Exception {

    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Kind {
        /** The TCP connection failed (refused, no route, no such host). */
        CONNECT,
        /** The device's host key is in neither the known hosts nor the pin. */
        HOST_KEY_UNKNOWN,
        /** The device's host key differs from the known or pinned one. */
        HOST_KEY_CHANGED,
        /** The user name, password or key was refused. */
        AUTHENTICATION,
        /** No answer (connection, prompt or reply) within its time. */
        TIMEOUT,
        /** The device answered with an error. */
        DEVICE_ERROR,
        /** The device closed the session unexpectedly. */
        DISCONNECTED,
        /** Anything else: algorithm negotiation, an unreadable key file, a reply the profile cannot read. */
        PROTOCOL
    }

    private final Kind kind;

    /** A failure of {@code kind}. */
    public SshException(Kind kind, String message) {
        this(kind, message, null);
    }

    /** A failure of {@code kind} caused by {@code cause}. */
    public SshException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** What went wrong. */
    public Kind kind() {
        return kind;
    }
}
