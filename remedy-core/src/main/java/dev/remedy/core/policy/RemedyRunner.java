package dev.remedy.core.policy;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.NodeFence;
import java.time.Duration;

/**
 * Starts, watches and cancels remedies for the {@link PolicyController}. {@link #of(FenceEngine,
 * ExternalRemediations)} runs fence remedies on the engine and external ones through their port.
 */
public interface RemedyRunner {

    /** How a running remedy is doing. */
    enum Progress {
        /** Still working. */
        RUNNING,
        /** Finished its work (the node is expected to turn healthy). */
        DONE,
        /** Failed: escalate at once. */
        FAILED
    }

    /** Why a running remedy is cancelled; an external remediator is told differently in each case. */
    enum Cancellation {
        /** The node stayed healthy for the policy's healthy delay: the remediation is over. */
        NODE_HEALTHY,
        /** The remedy's timeout passed: it is stopped and the ladder moves on (or gives up). */
        TIMED_OUT
    }

    /** Starts {@code remedy} for {@code node}; idempotent. */
    void start(String node, Remedy remedy, String reason);

    /**
     * Starts {@code remedy} for {@code node} after {@code raceDelay} (the fence-race delay storm protection chose).
     * The default ignores the delay.
     */
    default void start(String node, Remedy remedy, String reason, Duration raceDelay) {
        start(node, remedy, reason);
    }

    /** How {@code remedy} of {@code node} is doing. */
    Progress progress(String node, Remedy remedy);

    /**
     * Cancels {@code remedy} of {@code node} because of {@code cause} ({@code reason} says it in words); idempotent.
     */
    void cancel(String node, Remedy remedy, Cancellation cause, String reason);

    /** Fence remedies on {@code engine}, external remedies through {@code external}. */
    static RemedyRunner of(FenceEngine engine, ExternalRemediations external) {
        return new RemedyRunner() {
            @Override
            public void start(String node, Remedy remedy, String reason) {
                start(node, remedy, reason, Duration.ZERO);
            }

            @Override
            public void start(String node, Remedy remedy, String reason, Duration raceDelay) {
                if (remedy instanceof Remedy.External e) {
                    external.create(node, e);
                } else {
                    engine.decide(node, reason, raceDelay);
                }
            }

            @Override
            public Progress progress(String node, Remedy remedy) {
                if (remedy instanceof Remedy.External e) {
                    return external.progress(node, e);
                }
                NodeFence record = engine.record(node).orElse(null);
                if (record == null) {
                    return Progress.RUNNING;
                }
                if (record.state() == FenceState.ERROR && record.gaveUp()) {
                    return Progress.FAILED;
                }
                return record.state() == FenceState.FINAL || record.state() == FenceState.DONE
                        ? Progress.DONE : Progress.RUNNING;
            }

            @Override
            public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
                if (remedy instanceof Remedy.External e) {
                    external.delete(node, e, cause);
                } else if (engine.record(node).filter(r -> !r.isSettled()).isPresent()) {
                    engine.forceStop(node, "policy: " + reason);
                }
            }
        };
    }
}
