package dev.remedy.core.engine;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.engine.OperationTask;
import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.Confirmation;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.FakePowerTarget;
import dev.remedy.test.fake.WrappedFakeProvider;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A world for engine safety tests: fake machines behind a chaos-capable agent, a simulated cluster, a store that
 * survives crashes, an executor that queues operations until the test lets them run, and invariant checks that
 * record every violation they see.
 */
final class EngineWorld {

    /** How a machine's BMC behaves. */
    enum Behaviour { NORMAL, UNREACHABLE, REFUSES_LOGIN, SLOW, STATUS_STUCK_ON }

    /** Thrown by the store or the executor to simulate the engine process dying. */
    static final class Crash extends RuntimeException {
        Crash() {
            super("simulated crash", null, false, false);
        }
    }

    static final String PASSWORD = "engine-world-password";
    static final int RETRIES = 1;

    final FakeTimeSource time = new FakeTimeSource();
    final SimulatedCluster cluster = new SimulatedCluster();
    final FakePowerLab lab = new FakePowerLab();
    final List<String> nodes = new ArrayList<>();
    final Map<String, FakePowerTarget> targets = new HashMap<>();
    final Map<String, Behaviour> behaviour = new HashMap<>();
    final List<FenceEvent> events = new ArrayList<>();
    final List<String> violations = new ArrayList<>();
    final Deque<OperationTask> queue = new ArrayDeque<>();
    final FlowSettings settings;
    final CrashingStore store;
    int crashes;
    int tasksRun;
    int dropQueueAtTask = -1;
    FenceEngine engine;

    EngineWorld(int nodeCount, FenceStateStore backing, FlowSettings settings) {
        this.settings = settings;
        this.store = new CrashingStore(backing);
        String run = UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < nodeCount; i++) {
            String node = "w" + run + "-" + i;
            nodes.add(node);
            targets.put(node, lab.create(node, time).password(Secret.of(PASSWORD))
                    .transitionTime(Duration.ofSeconds(2)));
            behaviour.put(node, Behaviour.NORMAL);
            cluster.node(node, 3);
        }
        cluster.watch(this::checkRelease);
        engine = newEngine();
    }

    /** Builds and starts an engine over the surviving store, as a restarted process would. */
    FenceEngine newEngine() {
        FenceEngine fresh = FenceEngine.builder().store(store).cluster(cluster)
                .agents(FenceAgentRegistry.of(new FakeFenceAgentProvider(lab), new ChaosProvider()))
                .plans(node -> Optional.ofNullable(plan(node))).settings(settings).time(time)
                .executor(this::enqueue).listener(events::add).build();
        fresh.start();
        return fresh;
    }

    /** The engine died: queued operations are lost; a new engine starts from the store. */
    void crash() {
        crashes++;
        queue.clear();
        store.armed = -1;
        engine = newEngine();
    }

    /** Runs up to {@code count} queued operations (operations may queue more). */
    void drain(int count) {
        for (int i = 0; i < count && !queue.isEmpty(); i++) {
            if (tasksRun++ == dropQueueAtTask) {
                throw new Crash();
            }
            OperationTask task = queue.removeFirst();
            Optional<String> persisted = store.load(task.node()).flatMap(NodeFence::inFlight).map(o -> o.id());
            if (persisted.equals(Optional.of(task.operationId()))) {
                task.run();
                continue;
            }
            int calls = cluster.log().size();
            List<PowerState> power = targets.get(task.node()).history();
            task.run();
            if (cluster.log().size() != calls || !targets.get(task.node()).history().equals(power)) {
                violations.add("(4) operation " + task.operationId() + " acted although the store no longer has it"
                        + " in flight (" + persisted + ")");
            }
        }
    }

    /** Runs everything queued. */
    void settle() {
        drain(10_000);
    }

    /**
     * Lets the world behave (machines answer, nothing is paused, nodes report Ready when powered) and drives time
     * until every flow settles, surviving crashes armed earlier.
     */
    void quiesce() {
        nodes.forEach(node -> setBehaviour(node, Behaviour.NORMAL));
        for (int round = 0; round < 400 && !store.loadAll().stream().allMatch(NodeFence::isSettled); round++) {
            try {
                for (String node : nodes) {
                    engine.resume(node, "quiesce");
                    engine.observe(node, new Observation.Readiness(targets.get(node).power() == PowerState.ON,
                            Optional.empty()));
                }
                settle();
                time.advance(Duration.ofSeconds(20));
                engine.tick();
                settle();
            } catch (Crash crash) {
                crash();
            }
            checkState();
        }
    }

    void setBehaviour(String node, Behaviour value) {
        behaviour.put(node, value);
        FakePowerTarget target = targets.get(node);
        target.reachable(value != Behaviour.UNREACHABLE);
        target.password(Secret.of(value == Behaviour.REFUSES_LOGIN ? "another-password-entirely" : PASSWORD));
        target.transitionTime(value == Behaviour.SLOW ? Duration.ofSeconds(90) : Duration.ofSeconds(2));
    }

    /** Checks the invariants that can be read from the store, the machines and the events. */
    void checkState() {
        for (NodeFence record : store.loadAll()) {
            if (record.retries() > RETRIES) {
                violations.add("(5) retries " + record.retries() + " > " + RETRIES + " for " + record.node());
            }
            if (record.restarts() > settings.maxRestarts()) {
                violations.add("(5) restarts " + record.restarts() + " > " + settings.maxRestarts());
            }
            FakePowerTarget target = targets.get(record.node());
            boolean alerted = events.stream().anyMatch(e -> e instanceof FenceEvent.Alert && e.node().equals(record.node()));
            if (record.state() == FenceState.FINAL && target.power() == PowerState.OFF && target.pending().isEmpty()
                    && !alerted) {
                violations.add("(2) " + record.node() + " is FINAL, powered off, and nobody was alerted: "
                        + record.reason());
            }
        }
    }

    private void enqueue(Runnable runnable) {
        OperationTask task = (OperationTask) runnable;
        Optional<String> current = store.load(task.node()).flatMap(NodeFence::inFlight).map(o -> o.id());
        if (!current.equals(Optional.of(task.operationId()))) {
            violations.add("(3) operation " + task.operationId() + " queued but the store has " + current + " in flight");
        }
        if (queue.stream().anyMatch(t -> t.operationId().equals(task.operationId()))) {
            violations.add("(3) operation " + task.operationId() + " queued twice");
        }
        queue.addLast(task);
    }

    private void checkRelease(String call) {
        boolean release = call.startsWith("delete-pods ") || call.startsWith("add-taint " + Taint.OUT_OF_SERVICE.key());
        if (!release) {
            return;
        }
        String node = call.substring(call.lastIndexOf(' ') + 1);
        Optional<Confirmation> confirmation = store.load(node).flatMap(NodeFence::confirmation);
        if (confirmation.isEmpty()) {
            violations.add("(1) " + call + " before any confirmation was persisted");
        } else if (confirmation.get().kind() == Confirmation.Kind.STATUS_READ_OFF
                && targets.get(node).power() != PowerState.OFF) {
            violations.add("(1) " + call + " while the machine is " + targets.get(node).power());
        }
    }

    private NodePlan plan(String node) {
        if (!targets.containsKey(node)) {
            return null;
        }
        FenceAgentProvider chaos = new ChaosProvider();
        FenceAgentProvider fake = new FakeFenceAgentProvider(lab);
        ResolvedMethod bmc = new ResolvedMethod("bmc", ChaosProvider.TYPE, config(chaos, node));
        ResolvedMethod pdu = new ResolvedMethod("pdu", FakeFenceAgentProvider.TYPE, config(fake, node));
        return new NodePlan(node, "world", Map.of(
                FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(60)),
                FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofSeconds(120), RETRIES,
                        List.of(List.of(bmc), List.of(pdu))),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60))));
    }

    private static AgentConfig config(FenceAgentProvider provider, String node) {
        return provider.configure().set("plug", node).secret("password", Secret.of(PASSWORD))
                .set("poll_interval", "1s").set("login_timeout", "5s").build();
    }

    /** The fake agent, except that STATUS may keep reading ON (a lie in the safe direction). */
    final class ChaosProvider extends WrappedFakeProvider {
        static final String TYPE = "chaos";

        ChaosProvider() {
            super(lab);
        }

        @Override
        public String type() {
            return TYPE;
        }

        @Override
        protected FenceAgent wrap(FenceAgent honest, AgentConfig config) {
            String node = config.string("plug");
            return (request, context) -> {
                FenceOutcome outcome = honest.execute(request, context);
                if (request.action() == FenceAction.STATUS && behaviour.get(node) == Behaviour.STATUS_STUCK_ON
                        && outcome.isSuccess()) {
                    return FenceOutcome.succeeded(PowerState.ON, "status stuck at ON");
                }
                return outcome;
            };
        }
    }

    /** A store that can die at a chosen save. */
    static final class CrashingStore extends ForwardingStore {
        int saves;
        int armed = -1;

        CrashingStore(FenceStateStore backing) {
            super(backing);
        }

        @Override
        public NodeFence save(NodeFence record) {
            if (saves++ == armed) {
                throw new Crash();
            }
            return super.save(record);
        }
    }
}
