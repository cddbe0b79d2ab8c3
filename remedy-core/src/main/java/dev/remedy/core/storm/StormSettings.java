package dev.remedy.core.storm;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The limits of storm protection for one pool. Start from {@link #ofDefaults()} or {@link #custom()}; every
 * builder setter validates at once and names its property.
 *
 * @param minHealthy             how many nodes must stay healthy (percent rounds up); exclusive with maxUnhealthy
 * @param maxUnhealthy           how many nodes may be not healthy (percent rounds down); exclusive with minHealthy
 * @param stormCooldown          how long the pool must stay within the threshold before a storm ends
 * @param maxConcurrent          how many remediations may be in progress in the pool at once
 * @param oneControlPlaneAtATime whether at most one control-plane node may be remediated at a time
 * @param fencesPerWindow        the limit of admitted fences per sliding window, if any
 * @param podDeletionsPerWindow  the limit of workload (pod) deletions per sliding window, if any
 * @param failureDomainLabel     the topology label that names failure domains (rack, switch); none disables the
 *                               shared-infrastructure rule
 * @param maxDomainShare         a domain is suspect when its not-healthy share reaches this (0 exclusive..1)
 * @param domainMinUnhealthy     ...and it holds at least this many not-healthy nodes
 * @param domainShareBasis       what the share of a domain is taken of
 * @param maxDisconnectedShare   fencing is refused when this share of the pool (0 exclusive..1) is disconnected
 * @param quietPeriod            no fencing for this long after the engine starts
 * @param raceDelayBase          fixed fence-race delay of every admission
 * @param raceDelayRandomMax     largest random extra fence-race delay (uniform in 0..max)
 * @param priorityDelay          extra delay when the node has the highest priority of the pool
 * @param nodeCooldown           quiet time between two admissions of the same node (oVirt keeps 180 s); zero for none
 * @param unhealthyRange         Cluster API's unhealthyRange: remediate only while the not-healthy count is within it
 */
public record StormSettings(Optional<Threshold> minHealthy, Optional<Threshold> maxUnhealthy,
                            Duration stormCooldown, int maxConcurrent, boolean oneControlPlaneAtATime,
                            Optional<RateLimit> fencesPerWindow, Optional<RateLimit> podDeletionsPerWindow,
                            Optional<String> failureDomainLabel, double maxDomainShare, int domainMinUnhealthy,
                            DomainShareBasis domainShareBasis, double maxDisconnectedShare, Duration quietPeriod,
                            Duration raceDelayBase, Duration raceDelayRandomMax, Duration priorityDelay,
                            Duration nodeCooldown, Optional<UnhealthyRange> unhealthyRange) {

    /** Default minHealthy: 51 % (medik8s default), so a pool losing half its nodes stops remediating. */
    public static final Threshold DEFAULT_MIN_HEALTHY = Threshold.percent(51);
    /** Default storm cooldown: 5 minutes (remedy's choice; medik8s leaves it at 0). */
    public static final Duration DEFAULT_STORM_COOLDOWN = Duration.ofMinutes(5);
    /** Default maximum of concurrent remediations per pool: 5 (remedy's choice). */
    public static final int DEFAULT_MAX_CONCURRENT = 5;
    /** Default fence rate: 10 fences per 10 minutes (remedy's choice; no anchor has a rate limit). */
    public static final RateLimit DEFAULT_FENCES_PER_WINDOW = RateLimit.of(10, Duration.ofMinutes(10));
    /** Default pod deletion rate: 1,000 per 10 minutes (remedy's choice). */
    public static final RateLimit DEFAULT_POD_DELETIONS_PER_WINDOW = RateLimit.of(1000, Duration.ofMinutes(10));
    /** Default share that makes a failure domain suspect: one half. */
    public static final double DEFAULT_MAX_DOMAIN_SHARE = 0.5;
    /** Default least number of not-healthy nodes of a domain before it can be suspect: 3. */
    public static final int DEFAULT_DOMAIN_MIN_UNHEALTHY = 3;
    /** Default share of disconnected nodes that stops fencing: one half (oVirt skips at 50 % or more). */
    public static final double DEFAULT_MAX_DISCONNECTED_SHARE = 0.5;
    /** Default quiet period after the engine starts: 300 s (oVirt). */
    public static final Duration DEFAULT_QUIET_PERIOD = Duration.ofSeconds(300);
    /** Largest accepted fence-race delay of each kind. */
    public static final Duration MAX_RACE_DELAY = Duration.ofHours(1);

    /** What the share of a failure domain is measured against. */
    public enum DomainShareBasis {
        /**
         * The domain's not-healthy nodes over the domain's nodes: "most of rack-3 is down". Robust to domains of
         * different sizes and to a pool that is one domain. The default.
         */
        OF_DOMAIN_NODES,
        /**
         * The domain's not-healthy nodes over all not-healthy nodes of the pool: "most of the failures are in
         * rack-3". Catches a partial failure of a large domain, but also fires in a pool that is mostly one domain.
         */
        OF_UNHEALTHY_NODES
    }

    /** Validates every setting, naming the offending property. */
    public StormSettings {
        Objects.requireNonNull(minHealthy, "minHealthy");
        Objects.requireNonNull(maxUnhealthy, "maxUnhealthy");
        if (minHealthy.isPresent() == maxUnhealthy.isPresent()) {
            throw new IllegalArgumentException("set exactly one of minHealthy and maxUnhealthy, got minHealthy="
                    + minHealthy.map(Threshold::toString).orElse("none") + " and maxUnhealthy="
                    + maxUnhealthy.map(Threshold::toString).orElse("none"));
        }
        nonNegative("stormCooldown", stormCooldown);
        atLeastOne("maxConcurrent", maxConcurrent);
        Objects.requireNonNull(fencesPerWindow, "fencesPerWindow");
        Objects.requireNonNull(podDeletionsPerWindow, "podDeletionsPerWindow");
        Objects.requireNonNull(failureDomainLabel, "failureDomainLabel");
        failureDomainLabel.ifPresent(label -> label("failureDomainLabel", label));
        share("maxDomainShare", maxDomainShare);
        atLeastOne("domainMinUnhealthy", domainMinUnhealthy);
        Objects.requireNonNull(domainShareBasis, "domainShareBasis");
        share("maxDisconnectedShare", maxDisconnectedShare);
        nonNegative("quietPeriod", quietPeriod);
        checkRaceDelay("raceDelayBase", raceDelayBase);
        checkRaceDelay("raceDelayRandomMax", raceDelayRandomMax);
        checkRaceDelay("priorityDelay", priorityDelay);
        nonNegative("nodeCooldown", nodeCooldown);
        Objects.requireNonNull(unhealthyRange, "unhealthyRange");
    }

    /** The defaults (see the {@code DEFAULT_*} constants; no failure-domain label, no race delays). */
    public static StormSettings ofDefaults() {
        return custom().build();
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** The storm threshold's property name, {@code minHealthy} or {@code maxUnhealthy}. */
    public String thresholdName() {
        return minHealthy.isPresent() ? "minHealthy" : "maxUnhealthy";
    }

    private static Duration nonNegative(String property, Duration value) {
        Objects.requireNonNull(value, property);
        if (value.isNegative()) {
            throw new IllegalArgumentException(property + " must not be negative, got " + value);
        }
        return value;
    }

    private static Duration checkRaceDelay(String property, Duration value) {
        nonNegative(property, value);
        if (value.compareTo(MAX_RACE_DELAY) > 0) {
            throw new IllegalArgumentException(property + " must be at most " + MAX_RACE_DELAY + ", got " + value);
        }
        return value;
    }

    private static int atLeastOne(String property, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(property + " must be at least 1, got " + value);
        }
        return value;
    }

    private static double share(String property, double value) {
        if (!(value > 0 && value <= 1)) {
            throw new IllegalArgumentException(property + " must be a share above 0 and at most 1 (0.5 is half), got "
                    + value);
        }
        return value;
    }

    private static String label(String property, String value) {
        Objects.requireNonNull(value, property);
        if (value.isBlank()) {
            throw new IllegalArgumentException(property + " must not be blank");
        }
        return value;
    }

    /** Builds {@link StormSettings}; each setter validates at once and names its property. */
    public static final class Builder {
        private Threshold minHealthy = DEFAULT_MIN_HEALTHY;
        private Threshold maxUnhealthy;
        private boolean thresholdSet;
        private Duration stormCooldown = DEFAULT_STORM_COOLDOWN;
        private int maxConcurrent = DEFAULT_MAX_CONCURRENT;
        private boolean oneControlPlaneAtATime = true;
        private RateLimit fencesPerWindow = DEFAULT_FENCES_PER_WINDOW;
        private RateLimit podDeletionsPerWindow = DEFAULT_POD_DELETIONS_PER_WINDOW;
        private String failureDomainLabel;
        private double maxDomainShare = DEFAULT_MAX_DOMAIN_SHARE;
        private int domainMinUnhealthy = DEFAULT_DOMAIN_MIN_UNHEALTHY;
        private DomainShareBasis domainShareBasis = DomainShareBasis.OF_DOMAIN_NODES;
        private double maxDisconnectedShare = DEFAULT_MAX_DISCONNECTED_SHARE;
        private Duration quietPeriod = DEFAULT_QUIET_PERIOD;
        private Duration nodeCooldown = Duration.ZERO;
        private UnhealthyRange unhealthyRange;
        private Duration raceDelayBase = Duration.ZERO;
        private Duration raceDelayRandomMax = Duration.ZERO;
        private Duration priorityDelay = Duration.ZERO;

        private Builder() {
        }

        /**
         * How many nodes must stay healthy (a percentage rounds up). Replaces the default; exclusive with
         * {@link #maxUnhealthy(Threshold)}.
         *
         * @throws IllegalStateException if maxUnhealthy was set on this builder
         */
        public Builder minHealthy(Threshold value) {
            Objects.requireNonNull(value, "minHealthy");
            if (thresholdSet && maxUnhealthy != null) {
                throw new IllegalStateException("maxUnhealthy is already set to " + maxUnhealthy
                        + "; set either minHealthy or maxUnhealthy, not both");
            }
            this.minHealthy = value;
            this.thresholdSet = true;
            return this;
        }

        /** {@link #minHealthy(Threshold)} from text such as {@code "51%"} or {@code "3"}. */
        public Builder minHealthy(String value) {
            return minHealthy(parse("minHealthy", value));
        }

        /**
         * How many nodes may be not healthy (a percentage rounds down). Replaces the default minHealthy;
         * exclusive with {@link #minHealthy(Threshold)}.
         *
         * @throws IllegalStateException if minHealthy was set on this builder
         */
        public Builder maxUnhealthy(Threshold value) {
            Objects.requireNonNull(value, "maxUnhealthy");
            if (thresholdSet && minHealthy != null) {
                throw new IllegalStateException("minHealthy is already set to " + minHealthy
                        + "; set either minHealthy or maxUnhealthy, not both");
            }
            this.maxUnhealthy = value;
            this.minHealthy = null;
            this.thresholdSet = true;
            return this;
        }

        /** {@link #maxUnhealthy(Threshold)} from text such as {@code "40%"} or {@code "3"}. */
        public Builder maxUnhealthy(String value) {
            return maxUnhealthy(parse("maxUnhealthy", value));
        }

        /** How long the pool must stay within the threshold before a storm ends (medik8s stormCooldownDuration). */
        public Builder stormCooldown(Duration value) {
            this.stormCooldown = nonNegative("stormCooldown", value);
            return this;
        }

        /** How many remediations may be in progress in the pool at once. */
        public Builder maxConcurrent(int value) {
            this.maxConcurrent = atLeastOne("maxConcurrent", value);
            return this;
        }

        /** Whether at most one control-plane node may be remediated at a time (default true). */
        public Builder oneControlPlaneAtATime(boolean value) {
            this.oneControlPlaneAtATime = value;
            return this;
        }

        /** At most {@code count} admitted fences in any sliding {@code window}. */
        public Builder fencesPerWindow(int count, Duration window) {
            this.fencesPerWindow = rate("fencesPerWindow", count, window);
            return this;
        }

        /** No limit on fences per window. */
        public Builder noFenceRateLimit() {
            this.fencesPerWindow = null;
            return this;
        }

        /** At most {@code count} pod deletions in any sliding {@code window}. */
        public Builder podDeletionsPerWindow(int count, Duration window) {
            this.podDeletionsPerWindow = rate("podDeletionsPerWindow", count, window);
            return this;
        }

        /** No limit on pod deletions per window. */
        public Builder noPodDeletionRateLimit() {
            this.podDeletionsPerWindow = null;
            return this;
        }

        /** The topology label naming failure domains ({@code topology.kubernetes.io/rack}); enables that rule. */
        public Builder failureDomainLabel(String value) {
            this.failureDomainLabel = label("failureDomainLabel", value);
            return this;
        }

        /** The share (0 exclusive..1) of not-healthy nodes that makes a failure domain suspect. */
        public Builder maxDomainShare(double value) {
            this.maxDomainShare = share("maxDomainShare", value);
            return this;
        }

        /** The least number of not-healthy nodes of a domain before it can be suspect. */
        public Builder domainMinUnhealthy(int value) {
            this.domainMinUnhealthy = atLeastOne("domainMinUnhealthy", value);
            return this;
        }

        /** What a domain's share is taken of (default: of the domain's nodes). */
        public Builder domainShareBasis(DomainShareBasis value) {
            this.domainShareBasis = Objects.requireNonNull(value, "domainShareBasis");
            return this;
        }

        /** The share (0 exclusive..1) of disconnected nodes at which fencing is refused. */
        public Builder maxDisconnectedShare(double value) {
            this.maxDisconnectedShare = share("maxDisconnectedShare", value);
            return this;
        }

        /** No fencing for this long after the engine starts. */
        public Builder quietPeriod(Duration value) {
            this.quietPeriod = nonNegative("quietPeriod", value);
            return this;
        }

        /** Fence-race delay: {@code base} plus a uniform random extra of up to {@code randomMax}. */
        public Builder raceDelay(Duration base, Duration randomMax) {
            this.raceDelayBase = checkRaceDelay("raceDelayBase", base);
            this.raceDelayRandomMax = checkRaceDelay("raceDelayRandomMax", randomMax);
            return this;
        }

        /** Extra delay for the node with the highest priority (Pacemaker priority-fencing-delay). */
        public Builder priorityDelay(Duration value) {
            this.priorityDelay = checkRaceDelay("priorityDelay", value);
            return this;
        }

        /** Quiet time between two admissions of the same node (oVirt: 180 s between operations on one host). */
        public Builder nodeCooldown(Duration value) {
            this.nodeCooldown = nonNegative("nodeCooldown", value);
            return this;
        }

        /** Cluster API's unhealthyRange, e.g. {@code "[3-5]"}: remediate only within it. */
        public Builder unhealthyRange(String value) {
            Objects.requireNonNull(value, "unhealthyRange");
            try {
                this.unhealthyRange = UnhealthyRange.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unhealthyRange: " + e.getMessage(), e);
            }
            return this;
        }

        /** The settings. */
        public StormSettings build() {
            return new StormSettings(Optional.ofNullable(minHealthy), Optional.ofNullable(maxUnhealthy),
                    stormCooldown, maxConcurrent, oneControlPlaneAtATime, Optional.ofNullable(fencesPerWindow),
                    Optional.ofNullable(podDeletionsPerWindow), Optional.ofNullable(failureDomainLabel),
                    maxDomainShare, domainMinUnhealthy, domainShareBasis, maxDisconnectedShare, quietPeriod,
                    raceDelayBase, raceDelayRandomMax, priorityDelay, nodeCooldown,
                    Optional.ofNullable(unhealthyRange));
        }

        private static Threshold parse(String property, String value) {
            Objects.requireNonNull(value, property);
            try {
                return Threshold.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(property + ": " + e.getMessage(), e);
            }
        }

        private static RateLimit rate(String property, int count, Duration window) {
            Objects.requireNonNull(window, property + " window");
            try {
                return RateLimit.of(count, window);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(property + ": " + e.getMessage(), e);
            }
        }
    }
}
