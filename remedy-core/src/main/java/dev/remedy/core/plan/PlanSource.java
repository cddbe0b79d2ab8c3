package dev.remedy.core.plan;

import java.util.Optional;

/** Finds the fence plan of a node (from the fence configuration and the node's labels). */
@FunctionalInterface
public interface PlanSource {

    /** The plan of {@code node}, or empty if no topology covers it. */
    Optional<NodePlan> plan(String node);
}
