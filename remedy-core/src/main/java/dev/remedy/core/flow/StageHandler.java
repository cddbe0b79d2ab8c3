package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import java.time.Instant;
import java.util.Optional;

/**
 * What one stage does: the operation it issues or the timed move it takes, how the result of that operation moves
 * the flow, and what a node that reports Ready changes. {@link FenceFlow} picks the handler of the record's stage;
 * handlers change the record only through a {@link Draft}, whose stage changes are checked against the stage table.
 */
interface StageHandler {

    /**
     * One move when no operation is in flight and no wait holds the flow: issue the stage's operation or take its
     * timed transition. False when the flow must wait for an observation.
     */
    boolean advance(Draft d);

    /** The result of the operation this stage issued (the attempt is already recorded). */
    default void completed(Draft d, Completed result) {
    }

    /** The node reports Ready; {@code bootedAfterDecision} is its boot time if it booted after the decision. */
    default void ready(Draft d, Optional<Instant> bootedAfterDecision) {
    }

    /**
     * Whether the step deadline ends this stage. Cluster actions are idempotent and retried with backoff instead,
     * and the hold, race delay and restart wait have their own timers.
     */
    default boolean deadlineApplies() {
        return false;
    }
}
