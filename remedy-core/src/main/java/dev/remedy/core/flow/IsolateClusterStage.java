package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.spi.FenceStatus;

/** {@link Stage#ISOLATE_CLUSTER}: cordons and taints the node; a failure is a failed attempt of the isolation step. */
final class IsolateClusterStage implements StageHandler {

    private final Moves moves;

    IsolateClusterStage(Moves moves) {
        this.moves = moves;
    }

    @Override
    public boolean advance(Draft d) {
        moves.cluster(d, ClusterAction.ISOLATE);
        return true;
    }

    @Override
    public void completed(Draft d, Completed result) {
        if (result.status() == FenceStatus.SUCCEEDED) {
            d.to(Stage.ISOLATE_AGENTS, "node cordoned and tainted").b.position(0, 0);
        } else {
            moves.stepAttemptFailed(d, "isolating the node in the cluster failed: " + result.detail(),
                    result.status() == FenceStatus.TIMED_OUT);
        }
    }
}
