package dev.remedy.benchmarks;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drives 5,000 nodes (the Kubernetes cluster size limit) through a full fence flow with the fake agent on fake
 * time, then measures a reconcile pass over the 5,000 idle tracked nodes and the heap each tracked node costs.
 * Usage: {@code java -cp … dev.remedy.benchmarks.EngineBenchmark [nodes]}.
 */
public final class EngineBenchmark {

    private static final int PASSES = 2_000;

    private EngineBenchmark() {
    }

    /** Runs the benchmark and prints its figures. */
    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
        FakeTimeSource time = new FakeTimeSource();
        // A cluster that only counts calls: the simulated cluster's call log would be counted as engine heap.
        CountingCluster cluster = new CountingCluster();
        FakePowerLab lab = new FakePowerLab();
        FakeFenceAgentProvider fake = new FakeFenceAgentProvider(lab);
        Map<String, NodePlan> plans = new HashMap<>();
        String[] names = new String[nodes];
        for (int i = 0; i < nodes; i++) {
            String node = "node-" + i;
            names[i] = node;
            // Instant power changes: on one shared fake clock, an agent that waits would age every other flow.
            lab.create(node, time).transitionTime(Duration.ZERO);
            ResolvedMethod bmc = new ResolvedMethod("bmc", "fake", fake.configure().set("plug", node)
                    .secret("password", Secret.of("benchmark-password")).set("power_wait", "0s").build());
            plans.put(node, new NodePlan(node, "default", Map.of(
                    FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(60)),
                    FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofSeconds(120), 2, List.of(List.of(bmc))),
                    FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60)))));
        }
        AtomicLong transitions = new AtomicLong();
        InMemoryStateStore store = new InMemoryStateStore();
        FenceEngine engine = FenceEngine.builder().store(store).cluster(cluster)
                .agents(FenceAgentRegistry.of(fake)).plans(n -> Optional.ofNullable(plans.get(n)))
                .settings(FlowSettings.ofDefaults())
                .time(time).executor(Runnable::run)
                .listener(e -> {
                    if (e instanceof FenceEvent.Transitioned) {
                        transitions.incrementAndGet();
                    }
                }).build();
        engine.start();
        long heapBefore = usedHeapAfterGc();

        long start = System.nanoTime();
        for (String node : names) {
            engine.decide(node, "Ready=Unknown for 5m");
        }
        for (int round = 0; round < 200 && !all(engine, FenceState.DONE); round++) {
            time.advance(Duration.ofSeconds(5));
            engine.tick();
        }
        long flowNanos = System.nanoTime() - start;
        long toDone = transitions.get();
        check(all(engine, FenceState.DONE), "every node reached DONE", engine);

        long heapTracked = usedHeapAfterGc();
        double[] passes = new double[PASSES];
        for (int i = 0; i < PASSES; i++) {
            long t0 = System.nanoTime();
            engine.tick();
            passes[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(passes);

        long recoverStart = System.nanoTime();
        for (String node : names) {
            engine.observe(node, new Observation.Readiness(true, Optional.of(time.instant())));
        }
        long recoverNanos = System.nanoTime() - recoverStart;
        check(all(engine, FenceState.FINAL), "every node reached FINAL", engine);

        long totalTransitions = transitions.get();
        double seconds = (flowNanos + recoverNanos) / 1e9;
        double perNode = (heapTracked - heapBefore) / (double) nodes;
        System.out.printf(Locale.ROOT, "nodes                          %d%n", nodes);
        System.out.printf(Locale.ROOT, "full flow, all nodes           %.2f s wall (%d transitions to DONE, %d in all)%n",
                seconds, toDone, totalTransitions);
        System.out.printf(Locale.ROOT, "transitions per second         %.0f%n", totalTransitions / seconds);
        System.out.printf(Locale.ROOT, "reconcile pass, %d idle nodes  median %.3f ms, p99 %.3f ms, max %.3f ms"
                + "   (target < 5 ms: %s)%n", nodes, passes[PASSES / 2], passes[PASSES * 99 / 100],
                passes[PASSES - 1], passes[PASSES / 2] < 5 ? "met" : "MISSED");
        System.out.printf(Locale.ROOT, "heap per tracked node          %.0f bytes   (target < 2048: %s)%n", perNode,
                perNode < 2048 ? "met" : "MISSED");
        engine.close();
    }

    /** Cluster operations that succeed and count themselves. */
    private static final class CountingCluster implements ClusterOperations {
        private final AtomicLong calls = new AtomicLong();

        @Override
        public void cordon(String node) {
            calls.incrementAndGet();
        }

        @Override
        public void uncordon(String node) {
            calls.incrementAndGet();
        }

        @Override
        public void addTaint(String node, Taint taint) {
            calls.incrementAndGet();
        }

        @Override
        public void removeTaint(String node, Taint taint) {
            calls.incrementAndGet();
        }

        @Override
        public void deletePods(String node) {
            calls.incrementAndGet();
        }

        @Override
        public void deleteNode(String node) {
            calls.incrementAndGet();
        }

        @Override
        public void restoreNode(String node) {
            calls.incrementAndGet();
        }
    }

    private static boolean all(FenceEngine engine, FenceState state) {
        return engine.records().stream().map(NodeFence::state).allMatch(state::equals);
    }

    private static void check(boolean condition, String what, FenceEngine engine) {
        if (!condition) {
            Map<String, Long> stages = new java.util.TreeMap<>();
            engine.records().forEach(r -> stages.merge(r.stage() + " " + r.reason(), 1L, Long::sum));
            throw new IllegalStateException("benchmark precondition failed: " + what + "; stages: " + stages);
        }
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
