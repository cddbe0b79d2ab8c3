package dev.remedy.core.flow;

import java.time.Duration;
import java.util.Objects;

/**
 * The timing and limits of fence flows. Start from {@link #ofDefaults()} or {@link #custom()}.
 *
 * @param hold                 how long a decision is held (NEW) before isolation starts
 * @param awaitReady           how long DONE waits for the node to be Ready before ERROR
 * @param maxRestarts          how many times an ERROR restarts the flow before giving up
 * @param restartDelay         wait in ERROR before a restart
 * @param backoffInitial       first wait between STATUS polls and between retries of a cluster action
 * @param backoffMax           longest such wait
 * @param minRetryShare        a failed step is retried only if at least this share of its budget is left
 * @param minOperationBudget   an agent operation is not started with less time than this
 * @param clusterBudget        budget of one cluster action
 * @param clusterRetryWindow   how long a failing cluster action is retried (with backoff) before its step fails
 * @param operationGrace       how long past its budget an operation may stay without result before it counts as lost
 * @param attemptLog           how many finished operations a record keeps
 * @param releaseStrategy      how workloads are released once the node is confirmed off
 * @param softFenceGrace       how long the flow waits for the node to report Ready after an isolation level with a
 *                             soft method (reboot through SysRq, restart of the node agent) succeeded, before power
 *                             fencing starts: oVirt's "soft fence, and hard fence only if the host does not come back".
 *                             A node that reports Ready within it ends the flow without any power operation (a boot
 *                             after the decision counts as {@link Confirmation.Kind#REBOOTED_AFTER_DECISION}). The
 *                             wait does not use the power-management step's budget (that step starts when the grace
 *                             ends). A soft method that failed gets no grace, and neither does a flow that may already
 *                             have powered the node off. Zero disables it (power fencing follows isolation at once);
 *                             never negative.
 *
 * <p>The fence-race delay is not a flow setting: storm protection chooses it for each admitted node (base, random
 * and priority delay, {@code StormSettings}), and {@link FenceFlow#decide(String,
 * java.time.Instant, String, java.util.Optional, Duration)} adds it to the hold, before any fencing action.
 */
public record FlowSettings(Duration hold, Duration awaitReady, int maxRestarts, Duration restartDelay,
                           Duration backoffInitial, Duration backoffMax, double minRetryShare,
                           Duration minOperationBudget,
                           Duration clusterBudget, Duration clusterRetryWindow, Duration operationGrace,
                           int attemptLog, ReleaseStrategy releaseStrategy, Duration softFenceGrace) {

    /** Default hold after a decision. */
    public static final Duration DEFAULT_HOLD = Duration.ofSeconds(30);
    /** Default wait for Ready in DONE. */
    public static final Duration DEFAULT_AWAIT_READY = Duration.ofMinutes(15);
    /** Default restart limit. */
    public static final int DEFAULT_MAX_RESTARTS = 3;
    /** Default share of the budget needed for a retry (Pacemaker's 30 %). */
    public static final double DEFAULT_MIN_RETRY_SHARE = 0.3;
    /**
     * Default wait for a soft-fenced node to report Ready: time for a SysRq reboot (firmware, boot, kubelet start)
     * or a kubelet restart to show, as in oVirt, which hard-fences only a host that did not come back.
     */
    public static final Duration DEFAULT_SOFT_FENCE_GRACE = Duration.ofMinutes(2);

    /** Validates every setting. */
    public FlowSettings {
        for (Duration d : new Duration[] {hold, awaitReady, restartDelay, backoffInitial, backoffMax,
                minOperationBudget, clusterBudget, clusterRetryWindow, operationGrace}) {
            Objects.requireNonNull(d, "a duration setting");
            if (d.isNegative()) {
                throw new IllegalArgumentException("flow durations must not be negative, got " + d);
            }
        }
        Objects.requireNonNull(releaseStrategy, "releaseStrategy");
        Objects.requireNonNull(softFenceGrace, "softFenceGrace");
        if (softFenceGrace.isNegative()) {
            throw new IllegalArgumentException("softFenceGrace must not be negative (use 0 to power fence right after"
                    + " a successful soft fencing level), got " + softFenceGrace);
        }
        if (maxRestarts < 0 || attemptLog < 1) {
            throw new IllegalArgumentException("maxRestarts must be >= 0 and attemptLog >= 1");
        }
        if (!(minRetryShare >= 0 && minRetryShare <= 1)) {
            throw new IllegalArgumentException("minRetryShare must be within 0..1, was " + minRetryShare);
        }
        if (backoffInitial.isZero() || backoffMax.compareTo(backoffInitial) < 0) {
            throw new IllegalArgumentException("backoff must start above zero and backoffMax >= backoffInitial");
        }
    }

    /** The defaults. */
    public static FlowSettings ofDefaults() {
        return custom().build();
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** Builds {@link FlowSettings}; each setter names its property. */
    public static final class Builder {
        private Duration hold = DEFAULT_HOLD;
        private Duration awaitReady = DEFAULT_AWAIT_READY;
        private int maxRestarts = DEFAULT_MAX_RESTARTS;
        private Duration restartDelay = Duration.ofMinutes(1);
        private Duration backoffInitial = Duration.ofSeconds(1);
        private Duration backoffMax = Duration.ofSeconds(10);
        private double minRetryShare = DEFAULT_MIN_RETRY_SHARE;
        private Duration minOperationBudget = Duration.ofSeconds(1);
        private Duration clusterBudget = Duration.ofSeconds(30);
        private Duration clusterRetryWindow = Duration.ofMinutes(5);
        private Duration operationGrace = Duration.ofSeconds(30);
        private int attemptLog = 20;
        private ReleaseStrategy releaseStrategy = ReleaseStrategy.OUT_OF_SERVICE_TAINT;
        private Duration softFenceGrace = DEFAULT_SOFT_FENCE_GRACE;

        private Builder() {
        }

        /** Hold after the decision. */
        public Builder hold(Duration value) {
            this.hold = value;
            return this;
        }

        /** Wait for Ready in DONE. */
        public Builder awaitReady(Duration value) {
            this.awaitReady = value;
            return this;
        }

        /** Restart limit. */
        public Builder maxRestarts(int value) {
            this.maxRestarts = value;
            return this;
        }

        /** Wait before a restart. */
        public Builder restartDelay(Duration value) {
            this.restartDelay = value;
            return this;
        }

        /** Backoff bounds. */
        public Builder backoff(Duration initial, Duration max) {
            this.backoffInitial = initial;
            this.backoffMax = max;
            return this;
        }

        /** Share of a step's budget needed for a retry. */
        public Builder minRetryShare(double value) {
            this.minRetryShare = value;
            return this;
        }

        /** Smallest budget an agent operation is started with. */
        public Builder minOperationBudget(Duration value) {
            this.minOperationBudget = value;
            return this;
        }

        /** Budget of a cluster action. */
        public Builder clusterBudget(Duration value) {
            this.clusterBudget = value;
            return this;
        }

        /** How long a failing cluster action is retried before its step fails. */
        public Builder clusterRetryWindow(Duration value) {
            this.clusterRetryWindow = value;
            return this;
        }

        /** Grace after an operation's budget before it counts as lost. */
        public Builder operationGrace(Duration value) {
            this.operationGrace = value;
            return this;
        }

        /** Attempts kept per record. */
        public Builder attemptLog(int value) {
            this.attemptLog = value;
            return this;
        }

        /** How workloads are released. */
        public Builder releaseStrategy(ReleaseStrategy value) {
            this.releaseStrategy = value;
            return this;
        }

        /**
         * How long to wait for the node to report Ready after a successful soft fencing level before power fencing;
         * zero disables the wait. See {@link FlowSettings#softFenceGrace()}.
         */
        public Builder softFenceGrace(Duration value) {
            this.softFenceGrace = value;
            return this;
        }

        /** The settings; throws {@link IllegalArgumentException} naming a bad one. */
        public FlowSettings build() {
            return new FlowSettings(hold, awaitReady, maxRestarts, restartDelay, backoffInitial, backoffMax,
                    minRetryShare, minOperationBudget, clusterBudget, clusterRetryWindow,
                    operationGrace, attemptLog, releaseStrategy, softFenceGrace);
        }
    }
}
