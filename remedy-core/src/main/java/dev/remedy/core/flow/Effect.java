package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.FenceAction;
import java.time.Duration;
import java.util.Objects;

/** What the engine must do after persisting a transition. Every effect is idempotent. */
public sealed interface Effect {

    /** The node concerned. */
    String node();

    /** The operation id the result must carry. */
    String operationId();

    /**
     * Run an agent action on one method of the node's plan.
     *
     * @param node        the node
     * @param operationId the operation
     * @param step        the step whose plan holds the method
     * @param level       the level index
     * @param method      the method index
     * @param action      the action
     * @param budget      the deadline of the action
     */
    record RunAgent(String node, String operationId, FenceStep step, int level, int method, FenceAction action,
                    Duration budget) implements Effect {
        /** Validates the fields. */
        public RunAgent {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(operationId, "operationId");
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(budget, "budget");
        }
    }

    /**
     * Run a cluster action.
     *
     * @param node        the node
     * @param operationId the operation
     * @param action      the action
     */
    record RunCluster(String node, String operationId, ClusterAction action) implements Effect {
        /** Validates the fields. */
        public RunCluster {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(operationId, "operationId");
            Objects.requireNonNull(action, "action");
        }
    }
}
