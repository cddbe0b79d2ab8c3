package dev.remedy.core.plan;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one step is carried out for one node: levels tried in order (OR), each a list of methods that must all
 * succeed (AND), within one time budget shared by all levels and retries.
 *
 * @param timeout the budget of the whole step
 * @param retries how many times a failed step is tried again (0 = once only)
 * @param levels  the levels, in order; may be empty (the step then needs no agent)
 */
public record StepPlan(Duration timeout, int retries, List<List<ResolvedMethod>> levels) {

    /** Validates the plan and copies the levels. */
    public StepPlan {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a step timeout must be positive, was " + timeout);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must be >= 0, was " + retries);
        }
        levels = levels.stream().map(List::copyOf).toList();
        for (List<ResolvedMethod> level : levels) {
            if (level.isEmpty()) {
                throw new IllegalArgumentException("a level needs at least one method");
            }
        }
    }

    /** A step with no agent. */
    public static StepPlan none(Duration timeout) {
        return new StepPlan(timeout, 0, List.of());
    }
}
