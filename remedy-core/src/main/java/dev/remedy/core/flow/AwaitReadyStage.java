package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.time.Deadlines;
import java.time.Instant;
import java.util.Optional;

/** {@link Stage#AWAIT_READY}: waits for the node to report Ready, up to {@link FlowSettings#awaitReady()}. */
final class AwaitReadyStage implements StageHandler {

    private final Moves moves;

    AwaitReadyStage(Moves moves) {
        this.moves = moves;
    }

    /** When the wait for Ready of {@code r} runs out. */
    Instant deadline(NodeFence r) {
        return Deadlines.plus(r.stageSince(), moves.settings().awaitReady());
    }

    @Override
    public boolean advance(Draft d) {
        if (d.now.isBefore(deadline(d.current()))) {
            return false;
        }
        moves.fail(d, "node was not Ready within " + moves.settings().awaitReady());
        return true;
    }

    @Override
    public void ready(Draft d, Optional<Instant> bootedAfterDecision) {
        moves.startStep(d, FenceStep.RECOVERY, Stage.RECOVER_AGENTS, "node is Ready again");
    }
}
