package dev.remedy.core.policy;

import java.time.Instant;
import java.util.Objects;

/**
 * One condition of a node, as Kubernetes reports it ({@code Ready=Unknown} since 10:04).
 *
 * @param type           the condition type ({@code Ready}, {@code MemoryPressure}, …)
 * @param status         {@code True}, {@code False} or {@code Unknown}
 * @param lastTransition when the status last changed
 */
public record NodeCondition(String type, String status, Instant lastTransition) {

    /** Validates that every field is present. */
    public NodeCondition {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(lastTransition, "lastTransition");
    }
}
