package dev.remedy.simulation;

import java.util.Objects;

/** Something a scenario does to its nodes at a point in time. */
public sealed interface ScenarioStep {

    /** The nodes concerned. */
    NodeSelection nodes();

    /** What the step does, for the timeline ({@code fault hang starts}). */
    String describe();

    /**
     * A fault starts on the nodes (replacing any fault they had).
     *
     * @param fault the fault
     * @param nodes the nodes
     */
    record StartFault(Fault fault, NodeSelection nodes) implements ScenarioStep {
        /** Validates that both are given. */
        public StartFault {
            Objects.requireNonNull(fault, "fault");
            Objects.requireNonNull(nodes, "nodes");
        }

        @Override
        public String describe() {
            return "fault " + fault.code() + " starts (" + nodes + ")";
        }
    }

    /**
     * The faults of the nodes end (a partition heals, a switch is replaced, a dead machine is repaired).
     *
     * @param nodes the nodes
     */
    record ClearFault(NodeSelection nodes) implements ScenarioStep {
        /** Validates that the nodes are given. */
        public ClearFault {
            Objects.requireNonNull(nodes, "nodes");
        }

        @Override
        public String describe() {
            return "faults cleared (" + nodes + ")";
        }
    }

    /**
     * The BMCs of the nodes start behaving differently.
     *
     * @param behaviour how they behave from now on
     * @param nodes     the nodes
     */
    record SetBmc(BmcBehaviour behaviour, NodeSelection nodes) implements ScenarioStep {
        /** Validates that both are given. */
        public SetBmc {
            Objects.requireNonNull(behaviour, "behaviour");
            Objects.requireNonNull(nodes, "nodes");
        }

        @Override
        public String describe() {
            return "BMC now " + behaviour.code() + " (" + nodes + ")";
        }
    }
}
