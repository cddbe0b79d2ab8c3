package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.spi.FenceStatus;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A stage that runs one idempotent cluster action and moves on when it succeeds: {@link Stage#RELEASE},
 * {@link Stage#LIFT_OUT_OF_SERVICE} and {@link Stage#RECOVER_CLUSTER}. A failure is retried with backoff until the
 * cluster retry window is used up, which fails the step.
 */
final class ClusterStage implements StageHandler {

    private final Moves moves;
    private final Function<NodeFence, ClusterAction> action;
    private final Consumer<Draft> succeeded;

    ClusterStage(Moves moves, ClusterAction action, Consumer<Draft> succeeded) {
        this(moves, r -> action, succeeded);
    }

    /** A stage whose action depends on the record ({@link Stage#RELEASE}: by the kind of confirmation). */
    ClusterStage(Moves moves, Function<NodeFence, ClusterAction> action, Consumer<Draft> succeeded) {
        this.moves = moves;
        this.action = action;
        this.succeeded = succeeded;
    }

    @Override
    public boolean advance(Draft d) {
        moves.cluster(d, action.apply(d.current()));
        return true;
    }

    @Override
    public void completed(Draft d, Completed result) {
        moves.clusterResult(d, result.status() == FenceStatus.SUCCEEDED, () -> succeeded.accept(d));
    }
}
