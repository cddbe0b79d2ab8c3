package dev.remedy.benchmarks;

import dev.remedy.core.policy.NodeCondition;
import dev.remedy.core.policy.NodeRole;
import dev.remedy.core.policy.NodeStatus;
import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.PolicyController;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner;
import dev.remedy.core.policy.StormGate;
import dev.remedy.core.storm.QuorumGuard;
import dev.remedy.core.storm.StormListener;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.policy.UnhealthyCondition;
import dev.remedy.core.topology.NodeSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Times one evaluation of a remedy policy with storm protection (pool view, storm guard) over every node, as it runs on every
 * observation: 5,000 nodes (target under 1 ms) and 100,000 (target under 20 ms), with the sizes in between to
 * show that the cost per node stays flat (linear growth).
 */
public final class PolicyBenchmark {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final int[] SIZES = {1_000, 5_000, 20_000, 100_000};

    private PolicyBenchmark() {
    }

    /** Runs the benchmark and prints its figures. */
    public static void main(String[] args) {
        System.out.println("policy evaluation with storm protection over every node (5 % unhealthy, racks of 40, 2 conditions, 2 remedies)");
        System.out.println("garbage collector: " + java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()
                .stream().map(java.lang.management.GarbageCollectorMXBean::getName).toList());
        double baseline = 0;
        for (int size : SIZES) {
            double median = median(size);
            double perNode = median * 1e6 / size;
            if (baseline == 0) {
                baseline = perNode;
            }
            String target = size == 5_000 ? (median < 1 ? "   (target < 1 ms: met)" : "   (target < 1 ms: MISSED)")
                    : size == 100_000 ? (median < 20 ? "   (target < 20 ms: met)" : "   (target < 20 ms: MISSED)") : "";
            System.out.printf(Locale.ROOT, "%,9d nodes  median %8.3f ms  %6.1f ns/node  x%.2f of the smallest%s%n",
                    size, median, perNode, perNode / baseline, target);
        }
    }

    private static double median(int size) {
        List<NodeStatus> nodes = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            String status = i % 20 == 0 ? "False" : "True";
            nodes.add(new NodeStatus("node-" + i, Map.of("rack", "r" + (i / 40)),
                    List.of(new NodeCondition("Ready", status, T0))));
        }
        Policy policy = new Policy("workers", NodeSelector.ALL, NodeRole.WORKER,
                List.of(new UnhealthyCondition("Ready", "False", Duration.ofMinutes(5)),
                        new UnhealthyCondition("Ready", "Unknown", Duration.ofMinutes(5))),
                List.of(new Remedy.External("snr", Duration.ofMinutes(5), Map.of("kind", "SelfNodeRemediation")),
                        new Remedy.Fence("fence", Duration.ofMinutes(10))),
                Policy.DEFAULT_EXCLUSION_LABEL, Duration.ofMinutes(1), List.of(),
                StormSettings.custom().maxUnhealthy("40%").maxConcurrent(size).noFenceRateLimit()
                        .failureDomainLabel("rack").build());
        RemedyRunner idle = new RemedyRunner() {
            @Override
            public void start(String node, Remedy remedy, String reason) {
            }

            @Override
            public Progress progress(String node, Remedy remedy) {
                return Progress.RUNNING;
            }

            @Override
            public void cancel(String node, Remedy remedy, String reason) {
            }
        };
        StormGate storm = new StormGate(new SplittableRandom(7), QuorumGuard.oneAtATime(), StormListener.NONE,
                T0.minus(Duration.ofHours(1)));
        PolicyController controller = new PolicyController(List.of(policy), idle, storm, d -> { });
        Instant now = T0.plus(Duration.ofMinutes(6));
        controller.evaluate(nodes, now);
        for (int i = 0, warmUp = Math.max(100, 20_000_000 / size); i < warmUp; i++) {
            controller.evaluate(nodes, now);
        }
        int runs = Math.max(50, 2_000_000 / size);
        double[] millis = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            controller.evaluate(nodes, now);
            millis[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(millis);
        return millis[runs / 2];
    }
}
