package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import java.util.Optional;

/** {@link Stage#POWER_OFF}: sends OFF to the current method of the current power level. */
final class PowerOffStage extends PoweringOffStage {

    PowerOffStage(Moves moves) {
        super(moves, FenceAction.OFF);
    }

    @Override
    public void completed(Draft d, Completed result) {
        NodeFence r = d.original;
        if (Moves.stopConfirmed(r)) {
            moves.routeConfirmed(d);
        } else if (result.status() == FenceStatus.SUCCEEDED) {
            d.to(Stage.CONFIRM_OFF, "OFF sent to " + methodName(d, r) + "; reading STATUS").b.waitUntil(Optional.empty());
        } else {
            moves.agentLevelResult(d, false, result.status() == FenceStatus.TIMED_OUT, result.detail(), () -> { });
        }
    }
}
