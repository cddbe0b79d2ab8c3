package dev.remedy.core.topology;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.ReleaseAfter;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A named topology: the nodes it applies to, how each step fences them and which evidence releases their workloads.
 */
record Topology(String name, NodeSelector selector, Map<FenceStep, StepSpec> steps, ReleaseAfter releaseAfter) {

    Topology {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(selector, "selector");
        Objects.requireNonNull(releaseAfter, "releaseAfter");
        steps = new EnumMap<>(steps);
        for (FenceStep step : FenceStep.values()) {
            steps.putIfAbsent(step, StepSpec.DEFAULT);
        }
        steps = Collections.unmodifiableMap(steps);
    }

    /** Every template name this topology uses, in step and level order, each once. */
    Stream<String> templateNames() {
        return steps.values().stream().flatMap(s -> s.levels().stream()).flatMap(List::stream).distinct();
    }
}
