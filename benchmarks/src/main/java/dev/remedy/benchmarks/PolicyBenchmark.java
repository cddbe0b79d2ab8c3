package dev.remedy.benchmarks;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.policy.AdmissionGate;
import dev.remedy.core.policy.IncrementalPolicyController;
import dev.remedy.core.policy.NodeCondition;
import dev.remedy.core.policy.NodeRole;
import dev.remedy.core.policy.NodeStatus;
import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.PolicyController;
import dev.remedy.core.policy.PolicyDecision;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner;
import dev.remedy.core.policy.StormGate;
import dev.remedy.core.policy.UnhealthyCondition;
import dev.remedy.core.storm.QuorumGuard;
import dev.remedy.core.storm.StormListener;
import dev.remedy.core.storm.StormSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Times the evaluation of a remedy policy with storm protection on every observation, for 1,000 to 100,000 nodes:
 * (a) a full pass over every node (targets: under 1 ms for 5,000, under 20 ms for 100,000), whose cost per node
 * shows the growth is linear; (b) the incremental mode, which updates the changed node and what is due, polling
 * the runner for every running remedy; (c) the incremental mode told remedy progress instead. For (b) and (c) the
 * cost of an observation should not depend on the fleet: target at most x2 from 1,000 to 100,000 nodes.
 */
public final class PolicyBenchmark {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final int[] SIZES = {1_000, 5_000, 20_000, 100_000};
    private static final int[] INCREMENTAL_SIZES = {1_000, 10_000, 100_000};

    private PolicyBenchmark() {
    }

    /** Runs the benchmark and prints its figures. */
    public static void main(String[] args) {
        System.out.println("policy evaluation with storm protection (5 % unhealthy, racks of 40, 2 conditions, 2 remedies)");
        System.out.println("garbage collector: " + java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()
                .stream().map(java.lang.management.GarbageCollectorMXBean::getName).toList());
        System.out.println("a. full pass: PolicyController.evaluate(all nodes) on every observation");
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
        System.out.println("b. incremental: IncrementalPolicyController.observe(the changed node) + advance(now) on every"
                + " observation; 5 % of the fleet is being remediated");
        incremental("runner polled at every advance (the default)", IncrementalPolicyController::new);
        System.out.println("c. the same, made reportingProgress (the caller reports remedy progress, so running"
                + " remedies are not polled; this runner never changes)");
        incremental("progress reported", IncrementalPolicyController::reportingProgress);
    }

    /** Per-observation cost of one incremental mode at each size, and how it grows from 1,000 to 100,000 nodes. */
    private static void incremental(String mode, ControllerFactory<IncrementalPolicyController> factory) {
        // One discarded round at the smallest size, so that it is measured as warm as the sizes after it.
        incrementalMedian(INCREMENTAL_SIZES[0], factory);
        double smallest = 0;
        double largest = 0;
        for (int size : INCREMENTAL_SIZES) {
            double median = incrementalMedian(size, factory);
            smallest = smallest == 0 ? median : smallest;
            largest = median;
            System.out.printf(Locale.ROOT, "%,9d nodes  median %8.4f ms per observation%n", size, median);
        }
        double ratio = largest / smallest;
        System.out.printf(Locale.ROOT, "  %s: 100,000 / 1,000 nodes = x%.2f   (target <= x2, independent of the fleet:"
                + " %s)%n", mode, ratio, ratio <= 2 ? "met" : "MISSED");
    }

    /** Median time of one observation (a node's Ready flips) plus the advance of time that follows it. */
    private static double incrementalMedian(int size, ControllerFactory<IncrementalPolicyController> factory) {
        List<NodeStatus> nodes = fleet(size);
        IncrementalPolicyController controller = controller(size, factory);
        Instant now = T0.plus(Duration.ofMinutes(6));
        for (NodeStatus node : nodes) {
            controller.observe(node, now);
        }
        controller.advance(now);
        SplittableRandom random = new SplittableRandom(11);
        int runs = 20_000;
        double[] millis = new double[runs];
        for (int i = 0; i < runs * 2; i++) {
            int index = random.nextInt(size);
            String status = (i & 1) == 0 ? "True" : "False";
            NodeStatus changed = new NodeStatus("node-" + index, nodes.get(index).labels(),
                    List.of(new NodeCondition("Ready", status, now)));
            now = now.plusMillis(10);
            long start = System.nanoTime();
            controller.observe(changed, now);
            controller.advance(now);
            if (i >= runs) {
                millis[i - runs] = (System.nanoTime() - start) / 1e6;
            }
        }
        Arrays.sort(millis);
        return millis[runs / 2];
    }

    private static double median(int size) {
        List<NodeStatus> nodes = fleet(size);
        PolicyController controller = controller(size, PolicyController::new);
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

    /** {@code size} nodes, 5 % of them Ready=False since T0, in racks of 40. */
    private static List<NodeStatus> fleet(int size) {
        List<NodeStatus> nodes = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            String status = i % 20 == 0 ? "False" : "True";
            nodes.add(new NodeStatus("node-" + i, Map.of("rack", "r" + (i / 40)),
                    List.of(new NodeCondition("Ready", status, T0))));
        }
        return nodes;
    }

    /** How a controller of either mode is made. */
    @FunctionalInterface
    private interface ControllerFactory<C> {
        C create(List<Policy> policies, RemedyRunner runner, AdmissionGate gate, Consumer<PolicyDecision> listener);
    }

    /** The policy with storm protection (max 40 % unhealthy, racks as failure domains) and an idle runner. */
    private static <C> C controller(int size, ControllerFactory<C> factory) {
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
            public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
            }
        };
        StormGate storm = new StormGate(new SplittableRandom(7), QuorumGuard.oneAtATime(), StormListener.NONE,
                T0.minus(Duration.ofHours(1)));
        return factory.create(List.of(policy), idle, storm, d -> { });
    }
}
