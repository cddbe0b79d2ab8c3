package dev.remedy.core.topology;

import dev.remedy.core.plan.FenceStep;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One node's own fence configuration, as the Node remedy design's {@code fence-config-<node>} gives it: per step
 * the names of its methods (one level: all must succeed), and each method's template and own parameters.
 *
 * @param source  where it was read from, as in {@code fence-config-worker-1}
 * @param steps   per step, the method names of its one level (empty: the step has no method)
 * @param methods the methods by name
 */
record NodeTopology(String source, Map<FenceStep, List<String>> steps, Map<String, NodeMethod> methods) {

    NodeTopology {
        Objects.requireNonNull(source, "source");
        Map<FenceStep, List<String>> copy = new EnumMap<>(FenceStep.class);
        for (FenceStep step : FenceStep.values()) {
            copy.put(step, List.copyOf(steps.getOrDefault(step, List.of())));
        }
        steps = Collections.unmodifiableMap(copy);
        methods = Collections.unmodifiableMap(new LinkedHashMap<>(methods));
    }

    /**
     * A method of a node: a template and the parameters the node gives it.
     *
     * @param name     the method's name ({@code M} of {@code fence-method-M})
     * @param template the template it names
     * @param own      its own parameters, over the template's
     */
    record NodeMethod(String name, MethodTemplate template, MethodParameters own) {

        NodeMethod {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(template, "template");
            Objects.requireNonNull(own, "own");
        }

        @Override
        public String toString() {
            return name + "(" + template.name() + " " + own.values() + " secrets " + own.secrets() + ")";
        }
    }
}
