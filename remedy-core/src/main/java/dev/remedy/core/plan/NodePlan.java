package dev.remedy.core.plan;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the engine needs to fence one node: the topology it was chosen from and a plan per step.
 *
 * @param node     the node name
 * @param topology the name of the topology whose selector matched (or the default)
 * @param steps    a plan for every step
 */
public record NodePlan(String node, String topology, Map<FenceStep, StepPlan> steps) {

    /** Validates that every step has a plan and copies the map. */
    public NodePlan {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(topology, "topology");
        for (FenceStep step : FenceStep.values()) {
            if (!steps.containsKey(step)) {
                throw new IllegalArgumentException("node plan for " + node + " has no plan for step " + step);
            }
        }
        steps = Map.copyOf(new EnumMap<>(steps));
    }

    /** The plan of {@code step}. */
    public StepPlan step(FenceStep step) {
        return steps.get(step);
    }
}
