package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;

/**
 * {@link Stage#FAILED}: a step failed beyond its retries. The flow restarts from isolation when the restart delay
 * is over, unless it gave up (then only an admin can end it).
 */
final class FailedStage implements StageHandler {

    private final Moves moves;

    FailedStage(Moves moves) {
        this.moves = moves;
    }

    @Override
    public boolean advance(Draft d) {
        NodeFence r = d.current();
        d.b.restarts(r.restarts() + 1).retries(0);
        moves.startStep(d, FenceStep.ISOLATION, Stage.ISOLATE_CLUSTER, "restarting the flow ("
                + (r.restarts() + 1) + " of " + moves.settings().maxRestarts() + ")");
        return true;
    }
}
