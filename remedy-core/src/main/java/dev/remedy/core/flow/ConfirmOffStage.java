package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.time.Deadlines;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link Stage#CONFIRM_OFF}: reads STATUS of the method that was sent OFF until it reads OFF. When every method of
 * the level reads OFF, fencing is confirmed (an assumption when the level holds a self-fencing method, see
 * {@link Confirmation.Kind#ASSUMED_RESET_AFTER_SAFE_TIME}); a level that does not read OFF within its share of the
 * step's budget gives way to the next level.
 */
final class ConfirmOffStage extends PoweringOffStage {

    ConfirmOffStage(Moves moves) {
        super(moves, FenceAction.STATUS);
    }

    @Override
    public void completed(Draft d, Completed result) {
        NodeFence r = d.original;
        if (Moves.stopConfirmed(r)) {
            moves.routeConfirmed(d);
        } else if (result.status() == FenceStatus.SUCCEEDED && result.power() == PowerState.OFF) {
            readOff(d, r);
        } else if (TimeBudget.levelShareUsed(d.plan.step(FenceStep.POWER_MANAGEMENT), r, d.now)) {
            moves.agentLevelResult(d, false, false, "STATUS still read " + result.power(), () -> { });
        } else {
            Duration backoff = moves.budget().backoff(TimeBudget.left(r.stageSince(), d.now));
            d.b.waitUntil(Optional.of(Deadlines.plus(d.now, backoff))).reason("STATUS of " + methodName(d, r) + " read "
                    + result.power() + " (" + result.status() + "); polling again in " + Deadlines.millis(backoff) + " ms");
        }
    }

    /** The method reads OFF: on to the next method of the level, or, with the whole level OFF, confirmed. */
    private void readOff(Draft d, NodeFence r) {
        List<String> confirmed = new ArrayList<>(r.levelConfirmed());
        String name = methodName(d, r);
        if (!confirmed.contains(name)) {
            confirmed.add(name);
        }
        d.b.levelConfirmed(confirmed).poweredOff(true);
        if (!PlanWalk.lastOfLevel(d.plan, FenceStep.POWER_MANAGEMENT, r.level(), r.method())) {
            d.to(Stage.POWER_OFF, name + " reads OFF").b.position(r.level(), r.method() + 1);
        } else {
            d.b.powerLevel(r.level());
            d.confirm(new Confirmation(PlanWalk.selfLevel(d.plan, r.level())
                    ? Confirmation.Kind.ASSUMED_RESET_AFTER_SAFE_TIME : Confirmation.Kind.STATUS_READ_OFF,
                    String.join("+", confirmed), d.now));
            moves.routeConfirmed(d);
        }
    }
}
