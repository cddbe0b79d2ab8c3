package dev.remedy.core.plan;

import dev.remedy.spi.FencingKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the engine needs to fence one node: the topology it was chosen from, a plan per step and which
 * evidence releases its workloads.
 *
 * @param node         the node name
 * @param topology     the name of the topology whose selector matched (or the default)
 * @param steps        a plan for every step
 * @param releaseAfter which evidence lets the engine release the node's workloads
 */
public record NodePlan(String node, String topology, Map<FenceStep, StepPlan> steps, ReleaseAfter releaseAfter) {

    /**
     * Validates that every step has a plan (and, releasing after isolation, that isolation has levels and no soft
     * method) and copies the map.
     */
    public NodePlan {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(releaseAfter, "releaseAfter");
        for (FenceStep step : FenceStep.values()) {
            if (!steps.containsKey(step)) {
                throw new IllegalArgumentException("node plan for " + node + " has no plan for step " + step);
            }
        }
        steps = Map.copyOf(new EnumMap<>(steps));
        if (releaseAfter == ReleaseAfter.ISOLATION) {
            List<List<ResolvedMethod>> isolation = steps.get(FenceStep.ISOLATION).levels();
            if (isolation.isEmpty() || isolation.stream().flatMap(List::stream)
                    .anyMatch(m -> m.kind() == FencingKind.SOFT)) {
                throw new IllegalArgumentException("node plan for " + node + " releases after isolation, which needs"
                        + " isolation levels of power and fabric methods only");
            }
        }
    }

    /** A plan that releases workloads only once the node is confirmed stopped ({@link ReleaseAfter#POWER}). */
    public NodePlan(String node, String topology, Map<FenceStep, StepPlan> steps) {
        this(node, topology, steps, ReleaseAfter.POWER);
    }

    /** The plan of {@code step}. */
    public StepPlan step(FenceStep step) {
        return steps.get(step);
    }
}
