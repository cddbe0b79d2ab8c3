package dev.remedy.simulation;

import dev.remedy.core.policy.NodeStatus;
import dev.remedy.simulation.TimelineEntry.Kind;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.FakePowerTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The simulated machines of a {@link Scenario}: each node has labels, a {@link FakePowerTarget} behind a BMC whose
 * behaviour can change, and physics that set its {@code Ready} condition (with correct last-transition times) from
 * its power state, its boots and its fault. A node is Ready while powered on, booted and without a fault; powered
 * off, booting, hung, partitioned or dead it is {@code Ready=Unknown}; flapping it alternates between
 * {@code Unknown} and {@code False}.
 *
 * <p>The power targets live in the fleet's own {@link FakePowerLab} ({@link #lab()}, the lab the simulation's fake
 * agents fence), named as their nodes ({@link #plug}), change power at once (no transition time, so an agent never
 * advances the shared fake clock), and are removed by {@link #close()}. Not thread-safe: one simulation loop drives
 * it.
 */
public final class SimulatedFleet implements AutoCloseable {

    /** The BMC password of every simulated node. */
    static final Secret PASSWORD = Secret.of("simulated-bmc-password");
    private static final Secret WRONG_PASSWORD = Secret.of("a-password-the-agent-does-not-know");

    private final Scenario scenario;
    private final Map<String, SimulatedNode> nodes = new LinkedHashMap<>();
    private final FakePowerLab lab = new FakePowerLab();

    /** The nodes of {@code scenario}, Ready since long before the start, their power targets on {@code time}. */
    public SimulatedFleet(Scenario scenario, FakeTimeSource time) {
        this.scenario = Objects.requireNonNull(scenario, "scenario");
        Instant longAgo = time.instant().minus(Duration.ofDays(1));
        scenario.nodes().forEach((name, labels) -> {
            FakePowerTarget target = lab.create(name, time).transitionTime(Duration.ZERO);
            target.power(PowerState.ON);
            nodes.put(name, new SimulatedNode(name, labels, target, longAgo));
            bmc(name, scenario.bmc(name));
        });
    }

    /** The node names, in scenario order. */
    public List<String> nodes() {
        return List.copyOf(nodes.keySet());
    }

    /** Every node's status now (labels and the Ready condition). */
    public List<NodeStatus> statuses() {
        return nodes.values().stream().map(SimulatedNode::status).toList();
    }

    /** The status of {@code node}. */
    public NodeStatus status(String node) {
        return node(node).status();
    }

    /** Whether {@code node} is Ready. */
    public boolean ready(String node) {
        return node(node).ready();
    }

    /** When {@code node} last finished booting. */
    public Instant bootedAt(String node) {
        return node(node).bootedAt();
    }

    /** The fault of {@code node}, if it has one. */
    public Optional<Fault> fault(String node) {
        return node(node).fault();
    }

    /** The machine behind {@code node}'s BMC. */
    public FakePowerTarget target(String node) {
        return node(node).target();
    }

    /** The lab of this fleet's power targets: the fake agents of a simulation fence its targets. */
    public FakePowerLab lab() {
        return lab;
    }

    /** The fake agent's {@code plug} for {@code node}. */
    public String plug(String node) {
        return node(node).name();
    }

    /** The node whose plug is {@code plug}, if it is one of this fleet's. */
    public Optional<String> nodeOfPlug(String plug) {
        return Optional.ofNullable(nodes.get(plug)).map(SimulatedNode::name);
    }

    /** How the BMC of {@code node} behaves. */
    public BmcBehaviour bmc(String node) {
        return node(node).bmc();
    }

    /** Makes the BMC of {@code node} behave as {@code behaviour}. */
    public void bmc(String node, BmcBehaviour behaviour) {
        SimulatedNode n = node(node);
        n.bmc(behaviour);
        n.target().reachable(behaviour != BmcBehaviour.HANGS)
                .password(behaviour == BmcBehaviour.FAILS ? WRONG_PASSWORD : PASSWORD);
    }

    /** Powers {@code node} off and on again behind the BMC's back (a reboot from inside, a watchdog). */
    public void powerCycle(String node) {
        FakePowerTarget target = node(node).target();
        target.power(PowerState.OFF);
        target.power(PowerState.ON);
    }

    /** Applies a scenario step at {@code now}; returns an entry per node concerned. */
    List<TimelineEntry> apply(ScenarioStep step, Instant now, Duration offset) {
        List<TimelineEntry> entries = new ArrayList<>();
        for (String name : step.nodes().resolve(scenario.nodes())) {
            SimulatedNode node = node(name);
            if (step instanceof ScenarioStep.StartFault start) {
                node.fault(start.fault(), now);
            } else if (step instanceof ScenarioStep.ClearFault) {
                node.fault(null, now);
            } else if (step instanceof ScenarioStep.SetBmc set) {
                bmc(name, set.behaviour());
            }
            entries.add(new TimelineEntry(offset, name, Kind.SCENARIO, "", step.describe()));
        }
        return entries;
    }

    /** Advances every node's physics to {@code now}; returns an entry per readiness change or other note. */
    List<TimelineEntry> update(Instant now, Duration offset) {
        List<TimelineEntry> entries = new ArrayList<>();
        for (SimulatedNode node : nodes.values()) {
            boolean before = node.ready();
            node.update(now, scenario.bootTime(), scenario.flapPeriod()).ifPresent(note -> {
                Kind kind = node.ready() == before ? Kind.NODE : node.ready() ? Kind.READY : Kind.NOT_READY;
                entries.add(new TimelineEntry(offset, node.name(), kind, "", note));
            });
        }
        return entries;
    }

    /** Removes this fleet's power targets from its lab. */
    @Override
    public void close() {
        nodes.keySet().forEach(lab::remove);
    }

    private SimulatedNode node(String name) {
        SimulatedNode node = nodes.get(name);
        if (node == null) {
            throw new IllegalArgumentException("no node '" + name + "' in scenario '" + scenario.name() + "'");
        }
        return node;
    }
}
