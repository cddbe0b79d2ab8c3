package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import java.time.Instant;
import java.util.Optional;

/** {@link Stage#POWER_OFF}: sends OFF to the current method of the current power level. */
final class PowerOffStage implements StageHandler {

    private final Moves moves;

    PowerOffStage(Moves moves) {
        this.moves = moves;
    }

    @Override
    public boolean advance(Draft d) {
        NodeFence r = d.current();
        moves.agent(d, FenceStep.POWER_MANAGEMENT, r.level(), r.method(), FenceAction.OFF);
        return true;
    }

    @Override
    public void completed(Draft d, Completed result) {
        NodeFence r = d.original;
        if (r.confirmation().isPresent()) {
            moves.routeConfirmed(d);
        } else if (result.status() == FenceStatus.SUCCEEDED) {
            d.to(Stage.CONFIRM_OFF, "OFF sent to " + PlanWalk.method(d.plan, FenceStep.POWER_MANAGEMENT, r.level(),
                    r.method()).name() + "; reading STATUS").b.waitUntil(Optional.empty());
        } else {
            moves.agentLevelResult(d, false, result.status() == FenceStatus.TIMED_OUT, result.detail(), () -> { });
        }
    }

    @Override
    public void ready(Draft d, Optional<Instant> bootedAfterDecision) {
        readyWhilePoweringOff(moves, d, bootedAfterDecision);
    }

    @Override
    public boolean deadlineApplies() {
        return true;
    }

    /**
     * A node that rebooted after the decision while it is being powered off has stopped: the boot is kept as the
     * confirmation, and with no operation in flight the flow goes to recovery; an operation in flight routes the
     * confirmation when its result comes.
     */
    static void readyWhilePoweringOff(Moves moves, Draft d, Optional<Instant> bootedAfterDecision) {
        NodeFence r = d.original;
        if (bootedAfterDecision.isPresent() && r.confirmation().isEmpty()) {
            moves.confirmReboot(d, bootedAfterDecision.get());
            if (r.inFlight().isEmpty()) {
                d.b.poweredOff(false);
                moves.enterDone(d, "node rebooted after the decision and is Ready");
            }
        }
    }
}
