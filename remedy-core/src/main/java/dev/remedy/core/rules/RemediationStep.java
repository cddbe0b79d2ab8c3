package dev.remedy.core.rules;

import java.util.List;
import java.util.Objects;

/**
 * The result of one {@link EscalateRemediation#next} evaluation: persist {@link #status()} first, then run the actions.
 *
 * @param status  the new status
 * @param actions the effects to run, in order
 */
public record RemediationStep(RemediationStatus status, List<RemediationAction> actions) {

    /** Validates the fields and copies the actions. */
    public RemediationStep {
        Objects.requireNonNull(status, "status");
        actions = List.copyOf(Objects.requireNonNull(actions, "actions"));
    }
}
