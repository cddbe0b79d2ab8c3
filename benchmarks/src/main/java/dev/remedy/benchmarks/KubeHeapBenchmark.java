package dev.remedy.benchmarks;

import dev.remedy.fence.ipmi.IpmiTransport;
import dev.remedy.fence.kube.metrics.RemedyMetrics;
import dev.remedy.fence.kube.operator.RemedyOperator;
import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The operator's heap with thousands of realistic Node objects watched: used heap after GC with the mock server
 * holding the nodes, then again once the leading operator's Node informer has listed them; the difference is the
 * controller's (informer cache, policy controller, engine, clients).
 */
final class KubeHeapBenchmark {

    private static final long TARGET = 256L * 1024 * 1024;

    private KubeHeapBenchmark() {
    }

    static void run(int nodes) {
        try (IpmiBmcSimulator simulator = IpmiBmcSimulator.start();
                IpmiTransport transport = IpmiTransport.create();
                KubeCluster cluster = KubeCluster.start(KubeBenchmark.POLICIES, KubeBenchmark.fenceYaml(
                        simulator.addMany(1, BmcSpec.builder().user("admin", KubeCluster.PASSWORD).build()),
                        "unused-"))) {
            KubernetesClient client = cluster.client();
            long empty = usedAfterGc();
            long start = System.nanoTime();
            create(client, nodes);
            double createSeconds = (System.nanoTime() - start) / 1e9;
            long baseline = usedAfterGc();
            try (RemedyOperator operator = KubeBenchmark.operator(cluster.operatorClient(), transport)) {
                long started = System.nanoTime();
                operator.start();
                if (!KubeCluster.await(120_000, () -> operator.leading() && operator.ready() && tracked(operator)
                        >= nodes)) {
                    System.out.printf(Locale.ROOT, "  heap: the operator did not sync %,d nodes within 120 s; no"
                            + " figure%n", nodes);
                    return;
                }
                double syncSeconds = (System.nanoTime() - started) / 1e9;
                long after = usedAfterGc();
                long controller = after - baseline;
                System.out.printf(Locale.ROOT, "  heap with %,d realistic Nodes watched (12 labels, 4 annotations, 10"
                        + " images with 2 names and a size, 5 conditions with messages, 3 addresses,"
                        + " capacity/allocatable, nodeInfo; created in %.1f s): used heap after GC (5 x System.gc()"
                        + " with 200 ms settles, MemoryMXBean) %.1f MiB with the mock server holding them (%.1f MiB"
                        + " before they were created), %.1f MiB once the leading operator had listed and tracked them"
                        + " (%.1f s): controller %.1f MiB = %.1f KiB per node (target < 256 MiB: %s)%n", nodes,
                        createSeconds, mib(baseline), mib(empty), mib(after), syncSeconds, mib(controller),
                        controller / 1024.0 / nodes, controller < TARGET ? "PASS" : "MISS");
            }
        }
    }

    private static double tracked(RemedyOperator operator) {
        Gauge gauge = operator.meters().find(RemedyMetrics.NODES).gauge();
        return gauge == null ? 0 : gauge.value();
    }

    private static void create(KubernetesClient client, int nodes) {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> created = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                int index = i;
                created.add(pool.submit(() -> client.nodes().resource(KubeNodes.realistic(index)).create()));
            }
            for (Future<?> future : created) {
                future.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating nodes", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("creating a node on the mock server failed: " + e.getCause(), e);
        } finally {
            pool.shutdown();
        }
    }

    private static long usedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 5; i++) {
            System.gc();
            KubeCluster.sleep(200);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static double mib(long bytes) {
        return bytes / 1048576.0;
    }
}
