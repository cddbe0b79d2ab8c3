package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;

/**
 * {@link Stage#POWER_ON}: sends ON to each method of the level that powered the node off. ON must succeed: a
 * failure is retried until the step deadline.
 */
final class PowerOnStage implements StageHandler {

    private final Moves moves;

    PowerOnStage(Moves moves) {
        this.moves = moves;
    }

    @Override
    public boolean advance(Draft d) {
        NodeFence r = d.current();
        moves.agent(d, FenceStep.POWER_MANAGEMENT, r.powerLevel().orElse(0), r.method(), FenceAction.ON);
        return true;
    }

    @Override
    public void completed(Draft d, Completed result) {
        moves.retryingResult(d, result.status() == FenceStatus.SUCCEEDED, PlanWalk.nextPowerOn(d.plan, d.original),
                () -> {
                    d.b.poweredOff(false);
                    moves.enterDone(d, "powered on again");
                });
    }

    @Override
    public boolean deadlineApplies() {
        return true;
    }
}
