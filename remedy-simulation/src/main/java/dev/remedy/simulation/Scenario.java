package dev.remedy.simulation;

import dev.remedy.spi.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * A simulated cluster and what happens to it: nodes with labels, the initial behaviour of their BMCs, timed steps
 * (faults starting and clearing, BMCs changing) and how long to run. Build one in code with {@link #builder()}, or
 * read one from YAML with {@link ScenarioReader}:
 *
 * <pre>{@code
 * Scenario.builder().nodes(10).label("rack", i -> "r" + (i / 5))
 *         .at("30s", fault(Fault.HANG, "node-3..node-5"))
 *         .at("2m", fault(Fault.NETWORK, "rack=r1"))
 *         .at("10m", clear("rack=r1"))
 *         .bmc("node-7", BmcBehaviour.HANGS)
 *         .runFor("30m").build();
 * }</pre>
 *
 * @param name             a name for the timeline
 * @param nodes            node names (in order) with their labels
 * @param bmcs             the initial behaviour of every node's BMC
 * @param events           the timed steps, in time order
 * @param duration         how long the simulation runs
 * @param tick             the simulation step: physics, policies and the engine are advanced once per tick
 * @param bootTime         how long a power-cycled node takes to boot and report Ready
 * @param flapPeriod       how often a {@link Fault#FLAP flapping} node changes between Unknown and False
 * @param remediationDelay how long the simulated external remediator takes to reboot a node
 */
public record Scenario(String name, Map<String, Map<String, String>> nodes, Map<String, BmcBehaviour> bmcs,
                       List<Event> events, Duration duration, Duration tick, Duration bootTime, Duration flapPeriod,
                       Duration remediationDelay) {

    /** Default simulation step. */
    public static final Duration DEFAULT_TICK = Duration.ofSeconds(5);
    /** Default boot time. */
    public static final Duration DEFAULT_BOOT_TIME = Duration.ofMinutes(2);
    /** Default flap period. */
    public static final Duration DEFAULT_FLAP_PERIOD = Duration.ofSeconds(20);
    /** Default time the external remediator takes. */
    public static final Duration DEFAULT_REMEDIATION_DELAY = Duration.ofMinutes(1);
    /** Default length of a simulation. */
    public static final Duration DEFAULT_DURATION = Duration.ofMinutes(30);
    /** Most nodes a scenario may have (the Kubernetes cluster size limit). */
    public static final int MAX_NODES = 5_000;
    /** The longest a scenario runs, and the longest of each of its durations: 7 days of simulated time. */
    public static final Duration MAX_DURATION = Duration.ofDays(7);
    /**
     * Most ticks a scenario runs, its duration divided by its tick: 100,000 (a day at one tick a second). Each tick
     * advances every node, the policies and the engine, so more would run for a very long time.
     */
    public static final int MAX_TICKS = 100_000;

    /**
     * A step at a time offset from the start.
     *
     * @param at   when, from the start of the simulation
     * @param step what happens
     */
    public record Event(Duration at, ScenarioStep step) {
        /** Validates that the offset is not negative. */
        public Event {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(step, "step");
            if (at.isNegative()) {
                throw new IllegalArgumentException("an event cannot happen before the start, at " + at);
            }
        }
    }

    /**
     * Validates the scenario and copies its collections: 1 to {@link #MAX_NODES} nodes, every selection resolves,
     * every BMC names a node, durations positive and at most {@link #MAX_DURATION}, a tick no longer than the
     * duration and at most {@link #MAX_TICKS} of them, events within the duration.
     */
    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(duration, "duration");
        Map<String, Map<String, String>> copied = new LinkedHashMap<>();
        nodes.forEach((node, labels) -> copied.put(node, Collections.unmodifiableMap(new TreeMap<>(labels))));
        nodes = Collections.unmodifiableMap(copied);
        if (nodes.isEmpty() || nodes.size() > MAX_NODES) {
            throw new IllegalArgumentException("a scenario needs 1 to " + MAX_NODES + " nodes, got " + nodes.size());
        }
        for (String bmcNode : bmcs.keySet()) {
            if (!nodes.containsKey(bmcNode)) {
                throw new IllegalArgumentException("the BMC of '" + bmcNode + "' is set, but there is no such node");
            }
        }
        bmcs = Map.copyOf(bmcs);
        events = events.stream().sorted(Comparator.comparing(Event::at)).toList();
        positive("duration", duration);
        positive("tick", tick);
        positive("bootTime", bootTime);
        positive("flapPeriod", flapPeriod);
        positive("remediationDelay", remediationDelay);
        ticks(duration, tick).ifPresent(problem -> {
            throw new IllegalArgumentException("tick " + problem);
        });
        for (Event event : events) {
            event.step().nodes().resolve(nodes);
            if (event.at().compareTo(duration) > 0) {
                throw new IllegalArgumentException("event '" + event.step().describe() + "' at " + event.at()
                        + " is after the end of the simulation (" + duration + ")");
            }
        }
    }

    /** A builder with the defaults and no nodes. */
    public static Builder builder() {
        return new Builder();
    }

    /** A fault starting on the nodes selected by {@code nodes} ({@link NodeSelection} syntax). */
    public static ScenarioStep fault(Fault fault, String nodes) {
        return new ScenarioStep.StartFault(fault, NodeSelection.of(nodes));
    }

    /** A fault starting on {@code nodes}. */
    public static ScenarioStep fault(Fault fault, NodeSelection nodes) {
        return new ScenarioStep.StartFault(fault, nodes);
    }

    /** The faults of the selected nodes ending. */
    public static ScenarioStep clear(String nodes) {
        return new ScenarioStep.ClearFault(NodeSelection.of(nodes));
    }

    /** The faults of {@code nodes} ending. */
    public static ScenarioStep clear(NodeSelection nodes) {
        return new ScenarioStep.ClearFault(nodes);
    }

    /** The BMCs of the selected nodes starting to behave as {@code behaviour}. */
    public static ScenarioStep bmc(BmcBehaviour behaviour, String nodes) {
        return new ScenarioStep.SetBmc(behaviour, NodeSelection.of(nodes));
    }

    /** The initial BMC behaviour of {@code node}: {@link BmcBehaviour#OK} unless set. */
    public BmcBehaviour bmc(String node) {
        return bmcs.getOrDefault(node, BmcBehaviour.OK);
    }

    private static void positive(String property, Duration value) {
        Objects.requireNonNull(value, property);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(property + " must be positive, was " + value);
        }
        if (value.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException(property + " must be at most " + Durations.format(MAX_DURATION)
                    + ", was " + value);
        }
    }

    /**
     * What is wrong with running for {@code duration} in steps of {@code tick} (both positive and at most
     * {@link #MAX_DURATION}), as in {@code 2m is longer than run_for (1m)…}; empty if nothing.
     */
    static Optional<String> ticks(Duration duration, Duration tick) {
        if (tick.compareTo(duration) > 0) {
            return Optional.of(Durations.format(tick) + " is longer than run_for (" + Durations.format(duration)
                    + "), so the simulation would take one step and print nothing of what happens; give a tick "
                    + "shorter than run_for (the default is " + Durations.format(DEFAULT_TICK) + ")");
        }
        long ticks = duration.toNanos() / tick.toNanos();
        if (ticks > MAX_TICKS) {
            return Optional.of(Durations.format(tick) + " makes " + ticks + " ticks of run_for "
                    + Durations.format(duration) + ", more than the " + MAX_TICKS + " a scenario may run; give a "
                    + "longer tick or a shorter run_for");
        }
        return Optional.empty();
    }

    /** Builds a {@link Scenario}; durations are {@code 30s}, {@code 2m} or ISO-8601. */
    public static final class Builder {
        private String name = "scenario";
        private final Map<String, Map<String, String>> nodes = new LinkedHashMap<>();
        private final Map<String, BmcBehaviour> bmcs = new LinkedHashMap<>();
        private final List<Event> events = new ArrayList<>();
        private Duration duration = DEFAULT_DURATION;
        private Duration tick = DEFAULT_TICK;
        private Duration bootTime = DEFAULT_BOOT_TIME;
        private Duration flapPeriod = DEFAULT_FLAP_PERIOD;
        private Duration remediationDelay = DEFAULT_REMEDIATION_DELAY;

        private Builder() {
        }

        /** The scenario's name. */
        public Builder name(String value) {
            this.name = Objects.requireNonNull(value, "name");
            return this;
        }

        /** Adds {@code count} nodes named {@code node-<i>}, {@code i} counting on from the nodes already added. */
        public Builder nodes(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("nodes: give at least 1 node, got " + count);
            }
            int first = nodes.size();
            for (int i = first; i < first + count; i++) {
                node("node-" + i, Map.of());
            }
            return this;
        }

        /** Adds (or replaces) one node with its labels. */
        public Builder node(String node, Map<String, String> labels) {
            Objects.requireNonNull(node, "node");
            if (node.isBlank()) {
                throw new IllegalArgumentException("a node name must not be blank");
            }
            nodes.put(node, new LinkedHashMap<>(labels));
            return this;
        }

        /** Gives every node added so far the label {@code key} with the value computed from its index (from 0). */
        public Builder label(String key, IntFunction<String> value) {
            int i = 0;
            for (Map<String, String> labels : nodes.values()) {
                labels.put(key, value.apply(i++));
            }
            return this;
        }

        /** Adds a step at {@code at} from the start ({@code 30s}, {@code 2m}). */
        public Builder at(String at, ScenarioStep step) {
            return at(Durations.parse(at), step);
        }

        /** Adds a step at {@code at} from the start. */
        public Builder at(Duration at, ScenarioStep step) {
            events.add(new Event(at, step));
            return this;
        }

        /** Sets the initial BMC behaviour of the selected nodes (resolved against the nodes added so far). */
        public Builder bmc(String selection, BmcBehaviour behaviour) {
            NodeSelection.of(selection).resolve(nodes).forEach(node -> bmcs.put(node, behaviour));
            return this;
        }

        /** How long the simulation runs. */
        public Builder runFor(String value) {
            return runFor(Durations.parse(value));
        }

        /** How long the simulation runs. */
        public Builder runFor(Duration value) {
            this.duration = value;
            return this;
        }

        /** The simulation step. */
        public Builder tick(Duration value) {
            this.tick = value;
            return this;
        }

        /** How long a power-cycled node takes to be Ready. */
        public Builder bootTime(Duration value) {
            this.bootTime = value;
            return this;
        }

        /** How often a flapping node changes its Ready status. */
        public Builder flapPeriod(Duration value) {
            this.flapPeriod = value;
            return this;
        }

        /** How long the simulated external remediator takes to reboot a node. */
        public Builder remediationDelay(Duration value) {
            this.remediationDelay = value;
            return this;
        }

        /**
         * The scenario.
         *
         * @throws IllegalArgumentException saying what is wrong
         */
        public Scenario build() {
            return new Scenario(name, nodes, bmcs, events, duration, tick, bootTime, flapPeriod, remediationDelay);
        }
    }
}
