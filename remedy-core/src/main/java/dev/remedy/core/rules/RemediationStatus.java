package dev.remedy.core.rules;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The persisted status of an {@code escalate} remediation.
 *
 * @param phase      the phase
 * @param retryCount how many power cycles were retried after a failed one
 * @param phaseSince when the phase was entered; empty only in {@link RemediationPhase#PENDING}
 * @param conditions the conditions, at most one per type, sorted by type
 */
public record RemediationStatus(RemediationPhase phase, int retryCount, Optional<Instant> phaseSince,
        List<RemediationCondition> conditions) {

    /** Validates the fields and copies the conditions. */
    public RemediationStatus {
        Objects.requireNonNull(phase, "phase");
        if (retryCount < 0) {
            throw new IllegalArgumentException("retryCount: must be 0 or more, was " + retryCount);
        }
        Objects.requireNonNull(phaseSince, "phaseSince");
        if (phase != RemediationPhase.PENDING && phaseSince.isEmpty()) {
            throw new IllegalArgumentException("phaseSince: required in phase " + phase.code());
        }
        List<RemediationCondition> sorted = new ArrayList<>(Objects.requireNonNull(conditions, "conditions"));
        sorted.sort(Comparator.comparing(RemediationCondition::type));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).type().equals(sorted.get(i - 1).type())) {
                throw new IllegalArgumentException("conditions: type " + sorted.get(i).type() + " appears twice");
            }
        }
        conditions = List.copyOf(sorted);
    }

    /**
     * The status of a new remediation: pending, no retries, no conditions.
     *
     * @return the initial status
     */
    public static RemediationStatus initial() {
        return new RemediationStatus(RemediationPhase.PENDING, 0, Optional.empty(), List.of());
    }

    /**
     * The condition of a type.
     *
     * @param type the condition type
     * @return the condition, if set
     */
    public Optional<RemediationCondition> condition(String type) {
        return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
    }
}
