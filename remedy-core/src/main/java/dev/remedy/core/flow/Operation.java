package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.time.Deadlines;
import dev.remedy.spi.FenceAction;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The one operation a flow has in flight: an agent action on one method of the node's plan, or a cluster action.
 * Persisted before it runs, so a restarted engine runs it again (operations are idempotent).
 */
public sealed interface Operation {

    /** Unique within the node's flow ({@code node#sequence}). */
    String id();

    /** The step it belongs to. */
    FenceStep step();

    /** When it was issued. */
    Instant issuedAt();

    /** How long it may take. */
    Duration budget();

    /** This operation issued {@code by} later (a paused flow's operation, when it resumes). */
    Operation delayedBy(Duration by);

    /** What the engine runs for it, for {@code node}. */
    Effect effect(String node);

    /**
     * An agent action on one method of the step's plan.
     *
     * @param id       unique within the node's flow
     * @param step     the step whose plan holds the method
     * @param level    the level index within the step plan
     * @param method   the method index within the level
     * @param action   the agent action
     * @param issuedAt when it was issued
     * @param budget   how long it may take
     */
    record Agent(String id, FenceStep step, int level, int method, FenceAction action, Instant issuedAt,
                 Duration budget) implements Operation {

        /** Validates the fields. */
        public Agent {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(issuedAt, "issuedAt");
            Objects.requireNonNull(budget, "budget");
            if (level < 0 || method < 0) {
                throw new IllegalArgumentException("negative position " + level + "/" + method + " of operation " + id);
            }
        }

        @Override
        public Agent delayedBy(Duration by) {
            return new Agent(id, step, level, method, action, Deadlines.plus(issuedAt, by), budget);
        }

        @Override
        public Effect.RunAgent effect(String node) {
            return new Effect.RunAgent(node, id, step, level, method, action, budget);
        }
    }

    /**
     * A cluster action.
     *
     * @param id       unique within the node's flow
     * @param step     the step it belongs to
     * @param action   the cluster action
     * @param issuedAt when it was issued
     * @param budget   how long it may take
     */
    record Cluster(String id, FenceStep step, ClusterAction action, Instant issuedAt, Duration budget)
            implements Operation {

        /** Validates the fields. */
        public Cluster {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(issuedAt, "issuedAt");
            Objects.requireNonNull(budget, "budget");
        }

        @Override
        public Cluster delayedBy(Duration by) {
            return new Cluster(id, step, action, Deadlines.plus(issuedAt, by), budget);
        }

        @Override
        public Effect.RunCluster effect(String node) {
            return new Effect.RunCluster(node, id, action);
        }
    }
}
