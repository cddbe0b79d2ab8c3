package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Admin;
import dev.remedy.core.time.Deadlines;
import java.time.Duration;
import java.util.Optional;

/** What an administrator's command does to a flow, in any stage; a command that does not apply is refused. */
final class AdminCommands {

    private final Moves moves;

    AdminCommands(Moves moves) {
        this.moves = moves;
    }

    void apply(Draft d, Admin admin) {
        NodeFence r = d.original;
        String who = admin.actor();
        switch (admin.command()) {
            case PAUSE -> pause(d, r, who);
            case RESUME -> resume(d, r, who);
            case FORCE_STOP -> {
                if (r.state() == FenceState.FINAL) {
                    d.refuse("cannot force-stop: flow is already FINAL");
                } else {
                    moves.finish(d, "force-stopped by " + who);
                }
            }
            case CLEAR_ERROR -> {
                if (r.state() != FenceState.ERROR) {
                    d.refuse("cannot clear: flow is " + r.state() + ", not ERROR");
                } else {
                    moves.finish(d, "ERROR cleared by " + who);
                }
            }
            case CONFIRM_OFF -> confirmOff(d, r, who);
        }
    }

    private static void pause(Draft d, NodeFence r, String who) {
        if (r.isSettled() || r.pausedAt().isPresent()) {
            d.refuse("cannot pause: flow is " + (r.pausedAt().isPresent() ? "already paused" : "over"));
        } else {
            d.b.pausedAt(Optional.of(d.now)).reason("paused by " + who);
        }
    }

    /** Resumes a paused flow: every wait, deadline and operation in flight is shifted by the time it was paused. */
    private static void resume(Draft d, NodeFence r, String who) {
        if (r.pausedAt().isEmpty()) {
            d.refuse("cannot resume: flow is not paused");
            return;
        }
        Duration paused = TimeBudget.left(r.pausedAt().get(), d.now);
        d.b.pausedAt(Optional.empty()).step(r.stepStartedAt(), Deadlines.plus(r.stepDeadline(), paused))
                .waitUntil(r.waitUntil().map(w -> Deadlines.plus(w, paused))).reason("resumed by " + who)
                .inFlight(r.inFlight().map(op -> op.delayedBy(paused)));
        d.b.stage(r.stage(), Deadlines.plus(r.stageSince(), paused));
    }

    /** "I have powered it off myself": counts as confirmation while the flow may still power the node off. */
    private void confirmOff(Draft d, NodeFence r, String who) {
        boolean applies = (r.state() == FenceState.NEW || r.state() == FenceState.RUNNING
                || (r.state() == FenceState.ERROR && !r.gaveUp())) && !Moves.stopConfirmed(r);
        if (!applies) {
            d.refuse("manual confirmation does not apply: flow is " + r.state()
                    + (Moves.stopConfirmed(r) ? " and already confirmed" : ""));
            return;
        }
        d.confirm(new Confirmation(Confirmation.Kind.MANUAL, who, d.now));
        if (r.state() == FenceState.RUNNING && r.inFlight().isEmpty()) {
            moves.routeConfirmed(d);
        }
    }
}
