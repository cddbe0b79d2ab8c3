package dev.remedy.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.Confirmation;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.ReleaseStrategy;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.FakePowerTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The engine drives a whole flow against the fake agent and the simulated cluster, on fake time. */
class FenceEngineTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private final String node = "node-" + UUID.randomUUID();
    private final FakePowerLab lab = new FakePowerLab();
    private final FakePowerTarget target = lab.create(node, time);
    private final SimulatedCluster cluster = new SimulatedCluster().node(node, 5);
    private final InMemoryStateStore store = new InMemoryStateStore();
    private final List<FenceEvent> events = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();

    FenceEngineTest() {
        cluster.watch(call -> {
            boolean releasing = call.startsWith("delete-pods") || call.equals("add-taint " + Taint.OUT_OF_SERVICE.key()
                    + " " + node);
            if (releasing && (target.power() != PowerState.OFF
                    || store.load(node).flatMap(NodeFence::confirmation).isEmpty())) {
                violations.add(call + " while power " + target.power() + " and confirmation "
                        + store.load(node).flatMap(NodeFence::confirmation));
            }
        });
    }

    @Test
    @DisplayName("a full flow: hold, isolate, OFF confirmed, release while off, power on, recover, FINAL")
    void fullFlow() {
        FenceEngine engine = engine();
        engine.decide(node, "Ready=Unknown for 5m");
        assertThat(engine.record(node)).hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(FenceState.NEW));

        time.advance(Duration.ofSeconds(30));
        engine.tick();
        assertThat(cluster.cordoned(node)).isTrue();
        time.advance(Duration.ofSeconds(10));
        engine.tick();

        NodeFence afterPower = engine.record(node).orElseThrow();
        assertThat(afterPower.state()).isEqualTo(FenceState.DONE);
        assertThat(afterPower.confirmation()).hasValueSatisfying(c -> {
            assertThat(c.kind()).isEqualTo(Confirmation.Kind.STATUS_READ_OFF);
            assertThat(c.source()).isEqualTo("bmc");
        });
        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(cluster.pods(node)).isZero();
        assertThat(cluster.taints(node)).containsExactly(Taint.FENCING);

        engine.observe(node, new Observation.Readiness(true, Optional.of(time.instant())));
        NodeFence done = engine.record(node).orElseThrow();
        assertThat(done.state()).isEqualTo(FenceState.FINAL);
        assertThat(cluster.cordoned(node)).isFalse();
        assertThat(cluster.taints(node)).isEmpty();
        assertThat(target.power()).isEqualTo(PowerState.ON);
        assertThat(violations).isEmpty();
        assertThat(cluster.log()).containsExactly("cordon " + node, "add-taint remedy.dev/fencing " + node,
                "add-taint node.kubernetes.io/out-of-service " + node, "delete-pods " + node,
                "remove-taint node.kubernetes.io/out-of-service " + node, "remove-taint remedy.dev/fencing " + node,
                "uncordon " + node);
        assertThat(engine.history().of(node)).extracting(FenceEvent.OperationFinished::description)
                .contains("power_management L1 bmc off", "power_management L1 bmc status",
                        "power_management L1 bmc on");
        assertThat(events).filteredOn(FenceEvent.Confirmed.class::isInstance).hasSize(1);
    }

    @Test
    @DisplayName("an unreachable BMC never releases workloads: the flow retries, restarts, gives up and alerts")
    void unreachableNeverReleases() {
        target.reachable(false);
        FenceEngine engine = engine();
        engine.decide(node, "NotReady");
        for (int i = 0; i < 200 && !engine.record(node).orElseThrow().isSettled(); i++) {
            time.advance(Duration.ofSeconds(15));
            engine.tick();
        }
        NodeFence record = engine.record(node).orElseThrow();
        assertThat(record.state()).isEqualTo(FenceState.ERROR);
        assertThat(record.gaveUp()).isTrue();
        assertThat(record.restarts()).isEqualTo(FlowSettings.DEFAULT_MAX_RESTARTS);
        assertThat(cluster.pods(node)).isEqualTo(5);
        assertThat(cluster.log()).noneMatch(call -> call.startsWith("delete-pods"));
        assertThat(events).filteredOn(FenceEvent.Alert.class::isInstance).singleElement()
                .satisfies(alert -> assertThat(((FenceEvent.Alert) alert).reason()).contains("gave up"));
        engine.decide(node, "still NotReady");
        assertThat(events.get(events.size() - 1)).isInstanceOf(FenceEvent.Refused.class);
    }

    @Test
    @DisplayName("a manual confirmation releases workloads when no agent can read the node's power")
    void manualConfirmation() {
        target.reachable(false);
        FenceEngine engine = engine();
        engine.decide(node, "NotReady");
        time.advance(Duration.ofSeconds(40));
        engine.tick();
        engine.confirmOff(node, "alice");
        time.advance(Duration.ofSeconds(120));
        engine.tick();
        assertThat(engine.record(node).orElseThrow().confirmation()).hasValueSatisfying(c ->
                assertThat(c.kind()).isEqualTo(Confirmation.Kind.MANUAL));
        assertThat(cluster.pods(node)).isZero();
    }

    @Test
    @DisplayName("with the DELETE_NODE strategy the Node object is deleted while off and restored before power on")
    void deleteNodeStrategy() {
        List<String> order = new ArrayList<>();
        cluster.watch(call -> order.add(call + " power=" + target.power()));
        FenceEngine engine = engineWith(events::add, FlowSettings.custom()
                .releaseStrategy(ReleaseStrategy.DELETE_NODE).build());
        engine.decide(node, "NotReady");
        time.advance(Duration.ofSeconds(40));
        engine.tick();
        assertThat(engine.record(node).orElseThrow().state()).isEqualTo(FenceState.DONE);
        assertThat(cluster.exists(node)).isTrue();
        assertThat(order).contains("delete-node " + node + " power=OFF", "restore-node " + node + " power=OFF");
        assertThat(cluster.log()).noneMatch(call -> call.contains(Taint.OUT_OF_SERVICE.key()));
    }

    @Test
    @DisplayName("a node without a fence plan is reported once, not at every reconcile pass")
    void missingPlanReportedOnce() {
        FenceEngine engine = FenceEngine.builder().store(store).cluster(cluster)
                .agents(FenceAgentRegistry.of(new FakeFenceAgentProvider(lab))).plans(n -> Optional.empty())
                .time(time).executor(Runnable::run).listener(events::add).build();
        engine.start();
        engine.decide(node, "NotReady");
        for (int i = 0; i < 5; i++) {
            time.advance(Duration.ofSeconds(30));
            engine.tick();
        }
        assertThat(events).filteredOn(FenceEvent.Refused.class::isInstance).singleElement()
                .satisfies(e -> assertThat(((FenceEvent.Refused) e).reason()).contains("no fence plan covers node"));
        assertThat(cluster.log()).isEmpty();
    }

    @Test
    @DisplayName("a flow that start() could not recover for want of a plan (the plan source is filled after the engine "
            + "started, as a new leader's remediation plans are) has its operation in flight issued again by the first"
            + " tick that finds the plan, without waiting for the operation's budget")
    void recoveredOnceThePlanIsThere() {
        FenceEngine crashed = engineWith(events::add, FlowSettings.ofDefaults(), () -> true, r -> { });
        crashed.decide(node, "NotReady");
        time.advance(Duration.ofSeconds(30));
        crashed.tick();
        assertThat(store.load(node).orElseThrow().inFlight()).as("an operation issued, never run").isPresent();
        assertThat(cluster.log()).isEmpty();
        AtomicBoolean planned = new AtomicBoolean();

        FenceEngine next = engineWith(events::add, FlowSettings.ofDefaults(), planned::get, Runnable::run);
        next.tick();
        assertThat(cluster.log()).as("no plan, nothing done").isEmpty();
        planned.set(true);
        next.tick();

        assertThat(cluster.log()).as("the operation in flight was issued again and ran").startsWith("cordon " + node);
        assertThat(violations).isEmpty();
    }

    @Test
    @DisplayName("a restarted engine claims a record (saves it, raising its version) before it issues the operation in"
            + " flight again, so that an engine that acted on the older version can no longer save over it")
    void recoveredOperationClaimsTheRecordFirst() {
        FenceEngine crashed = engineWith(events::add, FlowSettings.ofDefaults(), () -> true, r -> { });
        crashed.decide(node, "NotReady");
        time.advance(Duration.ofSeconds(30));
        crashed.tick();
        long before = store.load(node).orElseThrow().version();
        List<Long> versionsAtEffects = new ArrayList<>();
        cluster.watch(call -> versionsAtEffects.add(store.load(node).orElseThrow().version()));

        engineWith(events::add, FlowSettings.ofDefaults(), () -> true, Runnable::run);

        assertThat(cluster.log()).as("the operation in flight ran again").startsWith("cordon " + node);
        assertThat(versionsAtEffects.get(0)).as("version saved before the re-issued effect").isGreaterThan(before);
        assertThat(violations).isEmpty();
    }

    @Test
    @DisplayName("a listener that throws changes nothing")
    void throwingListenerIsIsolated() {
        FenceEngine engine = engineWith(event -> {
            throw new IllegalStateException("listener bug");
        });
        engine.decide(node, "NotReady");
        time.advance(Duration.ofSeconds(40));
        engine.tick();
        assertThat(engine.record(node).orElseThrow().state()).isEqualTo(FenceState.DONE);
    }

    private FenceEngine engine() {
        return engineWith(events::add);
    }

    private FenceEngine engineWith(dev.remedy.core.event.FenceEventListener listener) {
        return engineWith(listener, FlowSettings.ofDefaults());
    }

    private FenceEngine engineWith(dev.remedy.core.event.FenceEventListener listener, FlowSettings settings) {
        return engineWith(listener, settings, () -> true, Runnable::run);
    }

    /** An engine whose plan source knows the node while {@code planned} says so, running operations on {@code run}. */
    private FenceEngine engineWith(dev.remedy.core.event.FenceEventListener listener, FlowSettings settings,
                                   BooleanSupplier planned,
                                   Executor run) {
        FakeFenceAgentProvider fake = new FakeFenceAgentProvider(lab);
        ResolvedMethod bmc = new ResolvedMethod("bmc", "fake", fake.configure().set("plug", node)
                .secret("password", Secret.of("engine-test-password")).set("poll_interval", "1s").build());
        NodePlan plan = new NodePlan(node, "default", Map.of(
                FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(60)),
                FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofSeconds(60), 1, List.of(List.of(bmc))),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60))));
        FenceEngine engine = FenceEngine.builder().store(store).cluster(cluster)
                .agents(FenceAgentRegistry.of(fake))
                .plans(n -> n.equals(node) && planned.getAsBoolean() ? Optional.of(plan) : Optional.empty())
                .settings(settings)
                .time(time).executor(run).listener(listener).build();
        engine.start();
        return engine;
    }
}
