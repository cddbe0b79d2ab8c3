package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;

/** {@link Stage#RECOVER_AGENTS}: runs the recovery levels (action ON). */
final class RecoverAgentsStage implements StageHandler {

    private final Moves moves;

    RecoverAgentsStage(Moves moves) {
        this.moves = moves;
    }

    @Override
    public boolean advance(Draft d) {
        NodeFence r = d.current();
        if (PlanWalk.levels(d.plan, FenceStep.RECOVERY).isEmpty()) {
            d.to(Stage.RECOVER_CLUSTER, "no recovery methods configured");
        } else {
            moves.agent(d, FenceStep.RECOVERY, r.level(), r.method(), FenceAction.ON);
        }
        return true;
    }

    @Override
    public void completed(Draft d, Completed result) {
        moves.agentLevelResult(d, result.status() == FenceStatus.SUCCEEDED, result.status() == FenceStatus.TIMED_OUT,
                result.detail(), () -> d.to(Stage.RECOVER_CLUSTER, "recovery methods done"));
    }

    @Override
    public boolean deadlineApplies() {
        return true;
    }
}
