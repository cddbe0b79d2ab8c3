package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import java.time.Instant;
import java.util.Optional;

/** {@link Stage#HOLD}: waits the hold period after the decision; a node Ready again meanwhile ends the flow. */
final class HoldStage implements StageHandler {

    private final Moves moves;

    HoldStage(Moves moves) {
        this.moves = moves;
    }

    @Override
    public boolean advance(Draft d) {
        moves.startStep(d, FenceStep.ISOLATION, Stage.ISOLATE_CLUSTER, "hold period over");
        return true;
    }

    @Override
    public void ready(Draft d, Optional<Instant> bootedAfterDecision) {
        d.to(Stage.FINISHED, "node is Ready again during the hold; nothing was done");
    }
}
