package dev.remedy.simulation;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.engine.OperationTask;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.Operation;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.PolicyController;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs remedy policies against a {@link Scenario} on fake time and returns the {@link Timeline}: the real
 * {@link PolicyController} and {@link FenceEngine} (with the fake agent in front of each node's simulated BMC, a
 * {@link SimulatedCluster} and an in-memory store), a {@link SimulatedFleet} for the machines and a
 * {@link SimulatedRemediator} for external remedies. Deterministic, and fast: half an hour of a ten-node cluster
 * takes milliseconds.
 *
 * <p>Every tick ({@link Scenario#tick()}): the scenario's due steps are applied, the remediator acts, the physics
 * update the nodes' conditions, the policies are evaluated, the engine reconciles (its operations run at once on
 * the calling thread, except those sent to a BMC that hangs, which never answer), the physics see what the engine
 * did, and the engine is told the readiness of every node it is fencing.
 *
 * <pre>{@code
 * Timeline timeline = PolicySimulation.run(List.of(policy), scenario);
 * assertThat(timeline.firstAt("node-3", Kind.FENCED)).hasValue(Duration.parse("PT6M30S"));
 * }</pre>
 */
public final class PolicySimulation {

    private PolicySimulation() {
    }

    /** Runs {@code policies} against {@code scenario} with the default options (no storm protection). */
    public static Timeline run(List<Policy> policies, Scenario scenario) {
        return run(policies, scenario, SimulationOptions.ofDefaults());
    }

    /** Runs {@code policies} against {@code scenario}. */
    public static Timeline run(List<Policy> policies, Scenario scenario, SimulationOptions options) {
        Objects.requireNonNull(policies, "policies");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(options, "options");
        FakeTimeSource time = new FakeTimeSource();
        Instant start = time.instant();
        TimelineRecorder recorder = new TimelineRecorder(start);
        try (SimulatedFleet fleet = new SimulatedFleet(scenario, time)) {
            SimulatedCluster cluster = new SimulatedCluster();
            fleet.nodes().forEach(node -> cluster.node(node, 10));
            Map<String, NodePlan> plans = plans(fleet, options);
            FenceEngine[] engineRef = new FenceEngine[1];
            FenceEngine engine = FenceEngine.builder().store(new InMemoryStateStore()).cluster(cluster)
                    .agents(FenceAgentRegistry.of(new FakeFenceAgentProvider(fleet.lab()),
                            new SimulatedBmcProvider(fleet)))
                    .plans(node -> Optional.ofNullable(plans.get(node))).settings(options.flowSettings())
                    .time(time).executor(task -> execute(task, engineRef[0], fleet)).listener(recorder).build();
            engineRef[0] = engine;
            engine.start();
            SimulatedRemediator remediator = new SimulatedRemediator(fleet, time, scenario.remediationDelay(),
                    recorder);
            Map<String, String> fenceRemedy = new HashMap<>();
            PolicyStormGate own = new PolicyStormGate(recorder, start);
            PolicyGates gates = new PolicyGates(policies, options.gates().orElse(policy -> own));
            PolicyController controller = new PolicyController(policies,
                    tracking(RemedyRunner.of(engine, remediator), fenceRemedy), gates, recorder::decision);
            recorder.remedyOf(node -> fenceRemedy.getOrDefault(node, ""));
            recorder.holdKind(gates::kindOf);
            loop(scenario, time, fleet, engine, remediator, controller, recorder);
            return recorder.timeline(scenario.name());
        }
    }

    private static void loop(Scenario scenario, FakeTimeSource time, SimulatedFleet fleet, FenceEngine engine,
                             SimulatedRemediator remediator, PolicyController controller, TimelineRecorder recorder) {
        Instant start = time.instant();
        List<Scenario.Event> events = scenario.events();
        int next = 0;
        for (Duration at = Duration.ZERO; at.compareTo(scenario.duration()) <= 0; at = at.plus(scenario.tick())) {
            Instant now = start.plus(at);
            time.advance(Duration.between(time.instant(), now));
            while (next < events.size() && events.get(next).at().compareTo(at) <= 0) {
                recorder.addAll(fleet.apply(events.get(next++).step(), now, at));
            }
            remediator.advance(now);
            recorder.addAll(fleet.update(now, at));
            recorder.hold();
            controller.evaluate(fleet.statuses(), now);
            recorder.release();
            engine.tick();
            recorder.addAll(fleet.update(now, at));
            for (String node : fleet.nodes()) {
                if (engine.record(node).filter(r -> !r.isSettled()).isPresent()) {
                    engine.observe(node, new Observation.Readiness(fleet.ready(node),
                            Optional.of(fleet.bootedAt(node))));
                }
            }
            if (!time.instant().equals(now)) {
                throw new IllegalStateException("an agent advanced the simulation's clock from " + now + " to "
                        + time.instant() + "; simulated agents must not wait");
            }
        }
    }

    /** Runs an operation at once, unless it is an agent operation for a BMC that hangs: that one never answers. */
    private static void execute(Runnable task, FenceEngine engine, SimulatedFleet fleet) {
        if (task instanceof OperationTask op && fleet.bmc(op.node()) == BmcBehaviour.HANGS
                && engine.record(op.node()).flatMap(NodeFence::inFlight)
                        .filter(o -> o.id().equals(op.operationId())).filter(Operation.Agent.class::isInstance).isPresent()) {
            return;
        }
        task.run();
    }

    private static Map<String, NodePlan> plans(SimulatedFleet fleet, SimulationOptions options) {
        SimulatedBmcProvider provider = new SimulatedBmcProvider(fleet);
        Map<String, NodePlan> plans = new HashMap<>();
        for (String node : fleet.nodes()) {
            ResolvedMethod bmc = new ResolvedMethod("bmc", SimulatedBmcProvider.TYPE, provider.configure()
                    .set("plug", fleet.plug(node)).secret("password", SimulatedFleet.PASSWORD)
                    .set("power_wait", "0s").set("login_timeout", "5s").set("poll_interval", "1s").build());
            plans.put(node, new NodePlan(node, "simulated", Map.of(
                    FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(60)),
                    FenceStep.POWER_MANAGEMENT, new StepPlan(options.powerTimeout(), options.powerRetries(),
                            List.of(List.of(bmc))),
                    FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60)))));
        }
        return plans;
    }

    /** Remembers the fence remedy last started for each node, to name it in the timeline's fence entries. */
    private static RemedyRunner tracking(RemedyRunner runner, Map<String, String> fenceRemedy) {
        return new RemedyRunner() {
            @Override
            public void start(String node, Remedy remedy, String reason) {
                if (remedy instanceof Remedy.Fence) {
                    fenceRemedy.put(node, remedy.name());
                }
                runner.start(node, remedy, reason);
            }

            @Override
            public Progress progress(String node, Remedy remedy) {
                return runner.progress(node, remedy);
            }

            @Override
            public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
                runner.cancel(node, remedy, cause, reason);
            }
        };
    }
}
