package dev.remedy.core.policy;

import dev.remedy.core.time.Deadlines;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A condition that makes a node unhealthy once it has held for {@code duration}, measured from the condition's
 * last transition. A policy's conditions are OR'ed.
 *
 * @param type     the condition type ({@code Ready})
 * @param status   the status that is unhealthy ({@code False}, {@code Unknown})
 * @param duration how long the status must have held
 */
public record UnhealthyCondition(String type, String status, Duration duration) {

    /** Validates the fields. */
    public UnhealthyCondition {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration of condition " + type + "=" + status + " must not be negative");
        }
    }

    /** Whether {@code node} shows this condition (whatever for how long). */
    public boolean shownBy(NodeStatus node) {
        NodeCondition condition = node.find(type);
        return condition != null && condition.status().equals(status);
    }

    /**
     * Whether {@code node} has shown this condition since {@code threshold} or earlier, where the caller computed
     * {@code threshold = now - duration} once for all nodes (no allocation per node).
     */
    boolean heldSince(NodeStatus node, Instant threshold) {
        NodeCondition condition = node.find(type);
        return condition != null && condition.status().equals(status) && !condition.lastTransition().isAfter(threshold);
    }

    /** Since when {@code node} has been unhealthy by this condition, if it is: the transition plus the duration. */
    public java.util.Optional<Instant> unhealthySince(NodeStatus node) {
        return node.condition(type).filter(c -> c.status().equals(status))
                .map(c -> Deadlines.plus(c.lastTransition(), duration));
    }
}
