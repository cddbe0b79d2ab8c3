package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import java.time.Instant;
import java.util.Optional;

/**
 * {@link Stage#RACE_DELAY}: waits the soft-fence grace (after a successful soft fencing level), then powers off. A
 * node Ready again before any power operation needs no power management.
 */
final class RaceDelayStage implements StageHandler {

    private final Moves moves;

    RaceDelayStage(Moves moves) {
        this.moves = moves;
    }

    @Override
    public boolean advance(Draft d) {
        if (PlanWalk.levels(d.plan, FenceStep.POWER_MANAGEMENT).isEmpty() && d.current().released()) {
            String why = "isolated and its pods released; no power management method: it stays isolated until it"
                    + " reboots or an admin confirms it off";
            if (!why.equals(d.current().reason())) {
                d.b.reason(why);
            }
            return false;
        } else if (PlanWalk.levels(d.plan, FenceStep.POWER_MANAGEMENT).isEmpty()) {
            moves.fail(d, "no power management method is configured for " + d.node()
                    + ", so remedy cannot confirm it is off; add a level or confirm by hand");
        } else {
            d.to(Stage.POWER_OFF, "isolation over; powering off").b.position(0, 0);
        }
        return true;
    }

    @Override
    public void ready(Draft d, Optional<Instant> bootedAfterDecision) {
        NodeFence r = d.original;
        if (r.inFlight().isPresent() || r.poweredOff() || !r.levelConfirmed().isEmpty()) {
            return;
        }
        if (bootedAfterDecision.isPresent() && !Moves.stopConfirmed(r)) {
            moves.confirmReboot(d, bootedAfterDecision.get());
            moves.routeConfirmed(d);
        } else if (r.released()) {
            String why = "node is Ready without a boot since the decision; its pods were released after isolation, so"
                    + " it stays isolated until it reboots or an admin confirms it off";
            if (!why.equals(r.reason())) {
                d.b.reason(why);
            }
        } else {
            moves.enterDone(d, "node is Ready again before any power operation: no power management needed");
        }
    }
}
