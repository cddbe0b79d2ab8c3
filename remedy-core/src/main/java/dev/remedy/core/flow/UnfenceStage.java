package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;

/**
 * {@link Stage#UNFENCE}: sends ON, in plan order, to each power and fabric method of every isolation level that may
 * have run, then waits for Ready. ON must succeed: a node still cut off is never declared recovered.
 */
final class UnfenceStage implements StageHandler {

    private final Moves moves;

    UnfenceStage(Moves moves) {
        this.moves = moves;
    }

    @Override
    public boolean advance(Draft d) {
        NodeFence r = d.current();
        moves.agent(d, FenceStep.ISOLATION, r.level(), r.method(), FenceAction.ON);
        return true;
    }

    @Override
    public void completed(Draft d, Completed result) {
        NodeFence r = d.original;
        moves.retryingResult(d, result.status() == FenceStatus.SUCCEEDED,
                PlanWalk.nextUnfence(d.plan, r.isolationLevel().orElse(-1), r.level(), r.method() + 1),
                () -> d.to(Stage.AWAIT_READY, "isolation un-fenced; waiting for the node to be Ready"));
    }

    @Override
    public boolean deadlineApplies() {
        return true;
    }
}
