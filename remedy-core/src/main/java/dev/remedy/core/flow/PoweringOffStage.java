package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.FenceAction;
import java.time.Instant;
import java.util.Optional;

/**
 * What the two stages that power the node off share ({@link Stage#POWER_OFF} sends OFF, {@link Stage#CONFIRM_OFF}
 * reads STATUS): each issues its action on the current method of the current power level, within the step
 * deadline, and a node that rebooted after the decision meanwhile has stopped: the boot is kept as the confirmation,
 * and with no operation in flight the flow goes to recovery; an operation in flight routes the confirmation when its
 * result comes.
 */
abstract class PoweringOffStage implements StageHandler {

    final Moves moves;
    private final FenceAction action;

    PoweringOffStage(Moves moves, FenceAction action) {
        this.moves = moves;
        this.action = action;
    }

    @Override
    public final boolean advance(Draft d) {
        NodeFence r = d.current();
        moves.agent(d, FenceStep.POWER_MANAGEMENT, r.level(), r.method(), action);
        return true;
    }

    @Override
    public final void ready(Draft d, Optional<Instant> bootedAfterDecision) {
        NodeFence r = d.original;
        if (bootedAfterDecision.isPresent() && !Moves.stopConfirmed(r)) {
            moves.confirmReboot(d, bootedAfterDecision.get());
            if (r.inFlight().isEmpty()) {
                d.b.poweredOff(false);
                moves.enterDone(d, "node rebooted after the decision and is Ready");
            }
        }
    }

    @Override
    public final boolean deadlineApplies() {
        return true;
    }

    /** The name of the method at {@code r}'s position in the power-management plan. */
    static String methodName(Draft d, NodeFence r) {
        return PlanWalk.method(d.plan, FenceStep.POWER_MANAGEMENT, r.level(), r.method()).name();
    }
}
