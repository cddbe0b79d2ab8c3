package dev.remedy.fence.kube.agent.internal;

/**
 * An API call that did not answer: the server refused it, could not be reached, or the action's deadline came
 * first. The message says what failed, why and what to do; it never holds a credential.
 */
public final class ApiCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean deadline;

    ApiCallException(String message, boolean deadline, Throwable cause) {
        super(message, cause);
        this.deadline = deadline;
    }

    /** Whether the action's deadline passed before the call answered (the outcome is then TIMED_OUT). */
    public boolean deadline() {
        return deadline;
    }
}
