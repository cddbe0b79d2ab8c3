package dev.remedy.core.flow;

import dev.remedy.core.plan.NodePlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The mutable working copy of one application of the flow: the record before, the plan, the time, the record
 * being built, and the effects and events collected. Every stage change goes through {@link #to}, which checks it
 * against the stage table of {@link Transitions}.
 */
final class Draft {

    final NodeFence original;
    final NodePlan plan;
    final Instant now;
    final NodeFence.Builder b;
    private final List<Effect> effects = new ArrayList<>();
    private final List<FenceEvent> events = new ArrayList<>();

    Draft(NodeFence original, NodePlan plan, Instant now) {
        this.original = original;
        this.plan = plan;
        this.now = now;
        this.b = original.toBuilder();
    }

    String node() {
        return original.node();
    }

    /** The record as it stands now. */
    NodeFence current() {
        return b.build();
    }

    /** Moves to {@code stage} for the reason {@code why}. */
    Draft to(Stage stage, String why) {
        Stage from = b.stage();
        Transitions.check(node(), from, stage);
        b.stage(stage, now).reason(why);
        events.add(new FenceEvent.Transitioned(node(), now, from, stage, why));
        return this;
    }

    /** Puts {@code op} in flight and asks the engine to run it. */
    void issue(Operation op, String description) {
        b.inFlight(Optional.of(op));
        effects.add(op.effect(node()));
        events.add(new FenceEvent.OperationIssued(node(), now, op.id(), description));
    }

    /** Asks the engine to run the operation in flight again (after a restart of the engine). */
    void reissue(Operation op) {
        effects.add(op.effect(node()));
    }

    /** Keeps {@code confirmation} as the evidence that the node is stopped. */
    void confirm(Confirmation confirmation) {
        b.confirmation(Optional.of(confirmation));
        events.add(new FenceEvent.Confirmed(node(), now, confirmation));
    }

    void event(FenceEvent event) {
        events.add(event);
    }

    void alert(String why) {
        events.add(new FenceEvent.Alert(node(), now, why));
    }

    void refuse(String why) {
        events.add(new FenceEvent.Refused(node(), now, why));
    }

    Transition transition() {
        return new Transition(b.build(), effects, events);
    }
}
