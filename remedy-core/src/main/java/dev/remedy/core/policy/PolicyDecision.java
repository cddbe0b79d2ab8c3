package dev.remedy.core.policy;

import java.time.Instant;
import java.util.Objects;

/**
 * One decision of the {@link PolicyController}, for the timeline and the events.
 *
 * @param at     when
 * @param node   the node
 * @param policy the policy
 * @param kind   what was decided
 * @param remedy the remedy concerned, or empty
 * @param reason why, for people
 */
public record PolicyDecision(Instant at, String node, String policy, Kind kind, String remedy, String reason) {

    /** Validates that every field is present. */
    public PolicyDecision {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(remedy, "remedy");
        Objects.requireNonNull(reason, "reason");
    }

    /** The kinds of decisions. */
    public enum Kind {
        /** The first remedy started. */
        STARTED,
        /** The running remedy failed or timed out; the next one started. */
        ESCALATED,
        /** The running remedy was cancelled (timeout, or the ladder ran out). */
        CANCELLED,
        /** The node stayed healthy for the healthy delay: the remediation ended. */
        RECOVERED,
        /** The ladder ran out without the node becoming healthy. */
        EXHAUSTED,
        /** A remediation was held back by storm protection; asked again at the next evaluation. */
        HELD,
        /** A remediation was not started because the policy is paused. */
        PAUSED
    }

    @Override
    public String toString() {
        return at + "  " + node + "  " + kind + (remedy.isEmpty() ? "" : " " + remedy) + "  (" + policy + "): "
                + reason;
    }
}
