package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.FenceAction;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The one operation a flow has in flight: an agent action on one method, or a cluster action. Persisted before
 * it runs, so a restarted engine runs it again (operations are idempotent).
 *
 * @param id       unique within the node's flow ({@code node#sequence})
 * @param step     the step it belongs to
 * @param level    the level index within the step plan (agent operations)
 * @param method   the method index within the level (agent operations)
 * @param action   the agent action, for an agent operation
 * @param cluster  the cluster action, for a cluster operation
 * @param issuedAt when it was issued
 * @param budget   how long it may take
 */
public record Operation(String id, FenceStep step, int level, int method, Optional<FenceAction> action,
                        Optional<ClusterAction> cluster, Instant issuedAt, Duration budget) {

    /** Validates that exactly one of agent or cluster action is given. */
    public Operation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(budget, "budget");
        if (action.isPresent() == cluster.isPresent()) {
            throw new IllegalArgumentException("an operation is either an agent or a cluster action: " + id);
        }
    }

    /** Whether this is an agent operation. */
    public boolean isAgent() {
        return action.isPresent();
    }
}
