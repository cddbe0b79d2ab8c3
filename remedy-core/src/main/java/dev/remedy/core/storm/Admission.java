package dev.remedy.core.storm;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer of {@link StormGuard#admit}: the fence may start (after a fence-race delay), is held (ask again
 * later) or is refused (the pool looks like a storm or like a failure of something shared). A denial always
 * names its rule and what was counted against which limit.
 */
public sealed interface Admission {

    /** Whether the fence was admitted. */
    default boolean admitted() {
        return this instanceof Admitted;
    }

    /** The rule that denied a fence; {@link #property()} is the setting behind it. */
    enum Reason {
        /** Too few healthy nodes (a storm). */
        MIN_HEALTHY("minHealthy"),
        /** Too many nodes not healthy (a storm). */
        MAX_UNHEALTHY("maxUnhealthy"),
        /** The pool is back within the threshold but the storm cooldown has not elapsed. */
        STORM_COOLDOWN("stormCooldown"),
        /** The pool already has the maximum of remediations in progress. */
        MAX_CONCURRENT("maxConcurrent"),
        /** Another control-plane node is being remediated. */
        CONTROL_PLANE_BUSY("oneControlPlaneAtATime"),
        /** The quorum guard vetoed fencing this control-plane node. */
        QUORUM_GUARD("quorumGuard"),
        /** The window's fences are used up. */
        FENCE_RATE("fencesPerWindow"),
        /** The node was admitted less than nodeCooldown ago. */
        NODE_COOLDOWN("nodeCooldown"),
        /** The number of nodes not healthy is outside unhealthyRange. */
        UNHEALTHY_RANGE("unhealthyRange"),
        /** The window's pod deletions are used up. */
        POD_DELETION_RATE("podDeletionsPerWindow"),
        /** The node's failure domain holds a suspicious concentration of unhealthy nodes. */
        SHARED_INFRASTRUCTURE("maxDomainShare"),
        /** Too many nodes are disconnected: the management side may be the broken one. */
        CONNECTIVITY_LOSS("maxDisconnectedShare"),
        /** The engine started too recently. */
        QUIET_PERIOD("quietPeriod");

        private final String property;

        Reason(String property) {
            this.property = property;
        }

        /** The setting (or port) behind this rule. */
        public String property() {
            return property;
        }
    }

    /**
     * The fence may start after {@code raceDelay}.
     *
     * @param raceDelay base + random extra + priority delay
     */
    record Admitted(Duration raceDelay) implements Admission {

        /** Validates that the delay is not negative. */
        public Admitted {
            Objects.requireNonNull(raceDelay, "raceDelay");
            if (raceDelay.isNegative()) {
                throw new IllegalArgumentException("raceDelay must not be negative, got " + raceDelay);
            }
        }
    }

    /** A fence that was not admitted: its rule and what was counted. */
    sealed interface Denied extends Admission {

        /** The rule. */
        Reason reason();

        /** What was counted against which limit. */
        String detail();
    }

    /**
     * Not now: a rule that passes with time (quiet period, cooldown, concurrency, control plane busy, rates).
     *
     * @param reason  the rule
     * @param detail  what was counted against which limit
     * @param retryAt the earliest time the rule can pass, when the guard knows it
     */
    record Held(Reason reason, String detail, Optional<Instant> retryAt) implements Denied {

        /** Validates that the detail is not blank. */
        public Held {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(retryAt, "retryAt");
            requireDetail(reason, detail);
        }

        /** A hold without a known retry time. */
        public Held(Reason reason, String detail) {
            this(reason, detail, Optional.empty());
        }
    }

    /**
     * Not while the pool looks like this: a storm, suspected shared infrastructure, connectivity loss or a quorum
     * veto.
     *
     * @param reason the rule
     * @param detail what was counted against which limit
     */
    record Refused(Reason reason, String detail) implements Denied {

        /** Validates that the detail is not blank. */
        public Refused {
            Objects.requireNonNull(reason, "reason");
            requireDetail(reason, detail);
        }
    }

    private static void requireDetail(Reason reason, String detail) {
        Objects.requireNonNull(detail, "detail of " + reason);
        if (detail.isBlank()) {
            throw new IllegalArgumentException("the detail of a " + reason + " denial must not be blank");
        }
    }
}
