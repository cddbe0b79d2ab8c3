package dev.remedy.core.engine.crash;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.JsonFileStateStore;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The engine process of the crash campaign ({@code CrashCampaignIT}), run in a child JVM that the test kills at
 * random moments: a real {@link FenceEngine} on the system clock with a {@link JsonFileStateStore}, the
 * {@link LabFenceAgentProvider crash-lab agent} and a {@link JournalCluster}, all acting on the {@link CrashLab} in
 * the directory given.
 *
 * <p>It plays the operator too: every 10 ms it reports Ready nodes to the engine and decides a fence for every
 * NotReady node, at most {@code concurrent} flows at a time (a decision for a node whose flow is active must be
 * refused by the engine). It exits 0 once every node's flow is FINAL; 2 if that takes longer than a minute; 3 with
 * the exception's message on stderr if the engine cannot start (a directory in use); 4 if a flow gave up. Alerts go
 * to stderr; transitions and failed operations to stdout. Prints {@value #RUNNING} once the engine has started.
 *
 * <p>Arguments: {@code <directory> <nodes> <concurrent>}.
 */
public final class CrashCampaignEngine {

    /** The first word of the line printed once the engine has loaded its records and re-issued their operations. */
    static final String RUNNING = "running";
    /** Exit code: flows still unfinished after {@link #BOUND}. */
    static final int UNFINISHED = 2;
    /** Exit code: the engine did not start. */
    static final int START_FAILED = 3;
    /** Exit code: a flow gave up. */
    static final int GAVE_UP = 4;

    /**
     * Short waits so that a flow takes about a second; budgets far longer than a restart of the process, so that
     * the time an engine lies dead never fails a step.
     */
    static final FlowSettings SETTINGS = FlowSettings.custom()
            .hold(Duration.ofMillis(100))
            .awaitReady(Duration.ofSeconds(30))
            .restartDelay(Duration.ofMillis(200))
            .backoff(Duration.ofMillis(20), Duration.ofMillis(200))
            .minOperationBudget(Duration.ofMillis(500))
            .clusterBudget(Duration.ofSeconds(10))
            .clusterRetryWindow(Duration.ofSeconds(30))
            .operationGrace(Duration.ofSeconds(2))
            .softFenceGrace(Duration.ZERO)
            .build();

    private static final Duration BOUND = Duration.ofMinutes(1);
    private static final Duration LOOP = Duration.ofMillis(10);

    private CrashCampaignEngine() {
    }

    /** Runs the engine on {@code <directory>} for {@code <nodes>} nodes, {@code <concurrent>} flows at a time. */
    public static void main(String[] args) throws InterruptedException {
        FenceEngine engine;
        CrashLab lab;
        List<String> nodes;
        int concurrent;
        try {
            if (args.length != 3) {
                throw new IllegalArgumentException("expected <directory> <nodes> <concurrent>, got " + List.of(args));
            }
            Path directory = Path.of(args[0]);
            nodes = CrashLab.nodes(Integer.parseInt(args[1]));
            concurrent = Integer.parseInt(args[2]);
            JsonFileStateStore store = new JsonFileStateStore(directory.resolve(CrashLab.STORE));
            lab = CrashLab.open(directory, nodes);
            LabFenceAgentProvider agent = new LabFenceAgentProvider(lab);
            Map<String, NodePlan> plans = nodes.stream()
                    .collect(Collectors.toMap(node -> node, node -> plan(node, agent)));
            engine = FenceEngine.builder().store(store).cluster(new JournalCluster(lab, store::load))
                    .agents(FenceAgentRegistry.of(agent)).plans(node -> Optional.ofNullable(plans.get(node)))
                    .settings(SETTINGS).threads(4).listener(CrashCampaignEngine::report).build();
            engine.start();
            store.problems().forEach(problem -> System.err.println("store problem: " + problem));
        } catch (RuntimeException e) {
            System.err.println("the crash campaign engine did not start: " + e.getMessage());
            System.exit(START_FAILED);
            return;
        }
        System.out.println(RUNNING + ": " + engine.records().size() + " records loaded, pid "
                + ProcessHandle.current().pid());
        int exit = operate(engine, lab, nodes, concurrent);
        engine.close();
        System.exit(exit);
    }

    /** The operator's loop, until every flow is FINAL (0), one gave up, or {@link #BOUND} passed. */
    private static int operate(FenceEngine engine, CrashLab lab, List<String> nodes, int concurrent)
            throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (System.nanoTime() - deadline < 0) {
            long active = engine.records().stream().filter(r -> !r.isSettled()).count();
            for (String node : nodes) {
                Optional<Instant> booted = lab.bootedIfReady(node, Instant.now());
                if (booted.isPresent()) {
                    engine.observe(node, new Observation.Readiness(true, booted));
                    continue;
                }
                Optional<NodeFence> before = engine.record(node);
                boolean inFlow = before.filter(r -> !r.isSettled()).isPresent();
                if (inFlow || active < concurrent) {
                    Optional<NodeFence> decided = engine.decide(node, "NotReady");
                    if (decided.isEmpty()) {
                        continue; // not saved yet: the engine keeps trying
                    }
                    NodeFence after = decided.get();
                    if (!before.map(NodeFence::decidedAt).equals(Optional.of(after.decidedAt()))) {
                        lab.decided(node, after.decidedAt(), before.map(r -> r.stage().code()).orElse("none"));
                        if (!inFlow) {
                            active++;
                        }
                    }
                }
            }
            engine.tick();
            List<NodeFence> records = List.copyOf(engine.records());
            List<NodeFence> gaveUp = records.stream().filter(NodeFence::gaveUp).toList();
            if (!gaveUp.isEmpty()) {
                gaveUp.forEach(r -> System.err.println("flow of " + r.node() + " gave up: " + r.reason()));
                return GAVE_UP;
            }
            if (records.size() == nodes.size() && records.stream().allMatch(r -> r.state() == FenceState.FINAL)) {
                lab.append(JournalLine.Event.DONE, JournalLine.NO_NODE);
                System.out.println("done: " + records.size() + " flows FINAL");
                return 0;
            }
            Thread.sleep(LOOP.toMillis());
        }
        Map<String, Long> stages = engine.records().stream()
                .collect(Collectors.groupingBy(r -> r.stage().code(), Collectors.counting()));
        System.err.println("not every flow was FINAL within " + BOUND + ": " + stages + " of " + nodes.size()
                + " nodes");
        return UNFINISHED;
    }

    /** One power level of one crash-lab method; no isolation or recovery methods. */
    private static NodePlan plan(String node, LabFenceAgentProvider agent) {
        ResolvedMethod bmc = new ResolvedMethod("bmc", LabFenceAgentProvider.TYPE,
                agent.configure().set("plug", node).build());
        return new NodePlan(node, "crash-lab", Map.of(
                FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(20)),
                FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofSeconds(30), 1, List.of(List.of(bmc))),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(20))));
    }

    private static void report(FenceEvent event) {
        if (event instanceof FenceEvent.Alert alert) {
            System.err.println("ALERT " + alert.node() + ": " + alert.reason());
        } else if (event instanceof FenceEvent.Transitioned t) {
            System.out.println(t.at() + " " + t.node() + " " + t.from().code() + " -> " + t.to().code() + ": "
                    + t.reason());
        } else if (event instanceof FenceEvent.OperationFinished done && done.result() != FenceStatus.SUCCEEDED) {
            System.out.println(done.at() + " " + done.node() + " " + done.description() + " " + done.result()
                    + ": " + done.detail());
        }
    }
}
