package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.ReleaseAfter;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.spi.FenceStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@link Stage#ISOLATE_AGENTS}: runs the isolation levels, OFF for power and fabric methods and REBOOT for soft
 * ones. A reboot after the decision reported meanwhile (a soft reboot in flight whose node is already back) is kept
 * as the confirmation, so that the flow ends when isolation is over instead of powering the node off.
 */
final class IsolateAgentsStage implements StageHandler {

    private final Moves moves;

    IsolateAgentsStage(Moves moves) {
        this.moves = moves;
    }

    @Override
    public boolean advance(Draft d) {
        NodeFence r = d.current();
        if (PlanWalk.levels(d.plan, FenceStep.ISOLATION).isEmpty()) {
            moves.enterRunning(d, "isolated (no isolation methods configured)", Duration.ZERO);
        } else {
            ResolvedMethod method = PlanWalk.method(d.plan, FenceStep.ISOLATION, r.level(), r.method());
            moves.agent(d, FenceStep.ISOLATION, r.level(), r.method(), PlanWalk.isolationAction(method));
        }
        return true;
    }

    @Override
    public void completed(Draft d, Completed result) {
        NodeFence r = d.original;
        moves.agentLevelResult(d, result.status() == FenceStatus.SUCCEEDED, result.status() == FenceStatus.TIMED_OUT,
                result.detail(), () -> {
                    if (d.plan.releaseAfter() == ReleaseAfter.ISOLATION && !Moves.stopConfirmed(r)) {
                        moves.releaseIsolated(d, r.level());
                        return;
                    }
                    d.b.isolationLevelReached(r.level());
                    moves.enterRunning(d, "isolated by level " + (r.level() + 1), moves.softFenceGrace(d, r.level()));
                });
    }

    @Override
    public void ready(Draft d, Optional<Instant> bootedAfterDecision) {
        if (bootedAfterDecision.isPresent() && !Moves.stopConfirmed(d.original)) {
            moves.confirmReboot(d, bootedAfterDecision.get());
            d.b.reason("node rebooted after the decision and is Ready; isolation goes on, then the flow ends"
                    + " without power fencing");
        }
    }

    @Override
    public boolean deadlineApplies() {
        return true;
    }
}
