package dev.remedy.simulation;

import java.time.Duration;
import java.util.Objects;

/**
 * One line of a simulation's {@link Timeline}: when (from the start), which node, what happened, the remedy
 * concerned (or empty) and why.
 *
 * @param at     time from the start of the simulation
 * @param node   the node
 * @param kind   what happened
 * @param remedy the remedy concerned, or empty
 * @param reason why, for people
 */
public record TimelineEntry(Duration at, String node, Kind kind, String remedy, String reason) {

    /** What happened. */
    public enum Kind {
        /** The scenario changed the node: a fault started or cleared, its BMC changed. */
        SCENARIO,
        /** The node stopped being Ready. */
        NOT_READY,
        /** The node turned Ready. */
        READY,
        /** Something else happened to the node itself (a power cycle ended a hang). */
        NODE,
        /** A policy started the first remedy of its ladder for the node. */
        STARTED,
        /** A remedy failed or timed out and the next one started. */
        ESCALATED,
        /** A remedy was cancelled (its timeout passed). */
        CANCELLED,
        /** The ladder ran out without the node turning healthy: it needs a person. */
        EXHAUSTED,
        /** Storm protection held a remediation back (asked again at the next evaluation). */
        HELD,
        /** Storm protection refused a remediation (a storm, or its cooldown). */
        REFUSED,
        /** Storm protection refused a remediation because the node's failure domain looks broken (rack, switch). */
        SHARED_INFRASTRUCTURE,
        /** A policy's pool crossed its storm threshold (the node column names the pool). */
        STORM_STARTED,
        /** A policy's pool stayed within its threshold for the storm cooldown (the node column names the pool). */
        STORM_ENDED,
        /** A failure domain is suspected of a shared-infrastructure failure (the node column names the domain). */
        DOMAIN_SUSPECTED,
        /** A suspected failure domain no longer looks broken (the node column names the domain). */
        DOMAIN_CLEARED,
        /** A remediation was not started because the policy is paused. */
        PAUSED,
        /** The node stayed healthy for the policy's healthy delay: the remediation ended. */
        RECOVERED,
        /** The external remediator rebooted the node. */
        REBOOTED,
        /** The external remediator gave up on the node. */
        REMEDIATION_FAILED,
        /** The engine accepted a fencing decision (the flow is held, then isolates the node). */
        DECIDED,
        /** The engine refused a decision or a command. */
        FENCE_REFUSED,
        /** An agent operation failed or timed out. */
        OPERATION_FAILED,
        /** Fencing was confirmed (STATUS read OFF, or the node rebooted after the decision). */
        FENCED,
        /** The node's workloads were released (out-of-service taint and pods deleted, or the Node deleted). */
        RELEASED,
        /** The engine powered the node on again. */
        POWERED_ON,
        /** A step of the fence flow failed beyond its retries (the flow restarts, or gives up). */
        FENCE_FAILED,
        /** The fence flow ended (recovered, cancelled, or closed). */
        FENCE_FINISHED,
        /** Something needs a person. */
        ALERT
    }

    /** Validates that every field is present. */
    public TimelineEntry {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(remedy, "remedy");
        Objects.requireNonNull(reason, "reason");
    }

    /** {@code +05:30}, or {@code +1:05:30} past an hour. */
    public static String offset(Duration at) {
        long seconds = at.toSeconds();
        return seconds >= 3600
                ? String.format(java.util.Locale.ROOT, "+%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                : String.format(java.util.Locale.ROOT, "+%02d:%02d", seconds / 60, seconds % 60);
    }

    /** {@code +05:30  node-3  FENCED  power off confirmed by STATUS of bmc}. */
    @Override
    public String toString() {
        return offset(at) + "  " + node + "  " + kind + (remedy.isEmpty() ? "" : " " + remedy) + "  " + reason;
    }
}
