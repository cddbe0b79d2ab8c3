package dev.remedy.core.rules;

import java.util.Arrays;
import java.util.Objects;

/** The phase of an {@code escalate} remediation; persisted by {@link #code()}, never by ordinal. */
public enum RemediationPhase {
    /** Created; nothing done yet. */
    PENDING("Pending", false),
    /** The reboot annotation is on the host; waiting for the host to report off. */
    POWERING_OFF("PoweringOff", false),
    /** The host was verified off and the annotation removed; waiting for the node to be ready. */
    WAITING_FOR_NODE("WaitingForNode", false),
    /** Retries used up: the machine is being deleted so that it is replaced. */
    DELETING("Deleting", false),
    /** The node came back ready. */
    SUCCEEDED("Succeeded", true),
    /** The machine's node is gone after deletion. */
    DELETED("Deleted", true),
    /** The host could not be powered off in time; the next remediator (or a human) takes over. */
    FAILED("Failed", true),
    /** The timed-out marker was found: stopped on the health checker's request. */
    CANCELLED("Cancelled", true);

    private final String code;
    private final boolean terminal;

    RemediationPhase(String code, boolean terminal) {
        this.code = code;
        this.terminal = terminal;
    }

    /**
     * The persisted code.
     *
     * @return the code, for example {@code PoweringOff}
     */
    public String code() {
        return code;
    }

    /**
     * Whether the remediation is over in this phase.
     *
     * @return true for SUCCEEDED, DELETED, FAILED and CANCELLED
     */
    public boolean terminal() {
        return terminal;
    }

    /**
     * The phase of a persisted code.
     *
     * @param code the code
     * @return the phase
     * @throws IllegalArgumentException for an unknown code, listing the known ones
     */
    public static RemediationPhase fromCode(String code) {
        Objects.requireNonNull(code, "code");
        for (RemediationPhase p : values()) {
            if (p.code.equals(code)) {
                return p;
            }
        }
        throw new IllegalArgumentException("phase: unknown code '" + code + "'; known are "
                + Arrays.stream(values()).map(RemediationPhase::code).toList());
    }
}
