package dev.remedy.benchmarks;

import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.rules.SafeTimeSettings;
import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.fence.ipmi.IpmiTransport;
import dev.remedy.fence.kube.metrics.RemedyMetrics;
import dev.remedy.fence.kube.operator.RemedyOperator;
import dev.remedy.fence.kube.store.NodeFenceResource;
import dev.remedy.fence.kube.watch.NodeWatcher;
import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The operator on fabric8's mock API server (CRUD mode, same JVM, 127.0.0.1, JDK HTTP client): time to safe with the
 * IPMI simulator as the BMCs against self-node-remediation's default safe time, API requests per fence and per idle
 * node, and the controller's heap with 5,000 realistic nodes ({@link KubeHeapBenchmark}). {@code kube quick} runs
 * fewer fences and a shorter idle window (CI).
 */
final class KubeBenchmark {

    static final String POLICIES = """
            policies:
              - name: workers
                unhealthyConditions: [{type: Ready, status: "False", duration: 300s}]
                escalation: [{name: fence, fence: {}, timeout: 10m}]
                storm:
                  quietPeriod: 0s
                  maxConcurrent: 1000
                  fencesPerWindow: none
                  podDeletionsPerWindow: none
                  raceDelay: {base: 0s, randomMax: 0s, priority: 0s}
            """;
    static final Duration HOLD = Duration.ofMillis(50);
    static final Duration TICK = Duration.ofMillis(50);
    /**
     * Healthy nodes beside the fenced ones: a fenced node still counts as unhealthy for storm protection after it
     * is Ready again (cordoned until its flow ends), so as many as the runs, plus three, keep minHealthy (51 %) met.
     */
    private static int healthy(int runs) {
        return runs + 3;
    }
    /** How often the benchmark reads a NodeFence while it waits (the mock server has one event loop). */
    private static final long API_POLL = 25;
    private static final int IDLE_NODES = 200;

    /** The mock web server logs every request at INFO through java.util.logging: kept quiet (a strong reference). */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    private KubeBenchmark() {
    }

    /** Runs the benchmark and prints its figures. */
    static void main(String[] args) {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        boolean quick = Arrays.asList(args).contains("quick");
        int runs = quick ? 20 : 50;
        int window = quick ? 10 : 20;
        System.out.printf(Locale.ROOT, "Kubernetes operator on fabric8's mock API server (CRUD mode, in this JVM, "
                + "127.0.0.1, JDK HTTP client)%s%n", quick ? " [quick: " + runs + " fences, " + window + " s idle window]"
                : "");
        fencesAndRequests(runs, window);
        KubeHeapBenchmark.run(quick ? 5_000 : 5_000);
    }

    static String fenceYaml(List<SimulatedBmc> bmcs, String prefix) {
        StringBuilder yaml = new StringBuilder("""
                templates:
                  bmc: {agent: ipmi, parameters: {username: admin}, secrets: {password: {secret: {name: bmc, key: pw}}}}
                topologies:
                  - name: default
                    power_management: {timeout: 30s, levels: [[bmc]]}
                nodes:
                """);
        for (int i = 0; i < bmcs.size(); i++) {
            yaml.append(String.format(Locale.ROOT, "  %s%02d: {bmc: {ip: \"%s\", ipport: \"%d\"}}%n", prefix, i + 1,
                    bmcs.get(i).host(), bmcs.get(i).port()));
        }
        return yaml.toString();
    }

    static RemedyOperator operator(KubernetesClient client, IpmiTransport transport) {
        return RemedyOperator.builder(client).identity("bench-replica")
                .agents(FenceAgentRegistry.of(new IpmiFenceAgentProvider(transport)))
                .meters(new SimpleMeterRegistry())
                .flow(FlowSettings.custom().hold(HOLD).build())
                .periods(NodeWatcher.DEFAULT_RESYNC, TICK)
                .build();
    }

    private static void fencesAndRequests(int runs, int window) {
        try (IpmiBmcSimulator simulator = IpmiBmcSimulator.start();
                IpmiTransport transport = IpmiTransport.create()) {
            List<SimulatedBmc> bmcs = simulator.addMany(runs, BmcSpec.builder()
                    .user("admin", KubeCluster.PASSWORD).build());
            bmcs.forEach(bmc -> bmc.powerChangeDelay(Duration.ZERO));
            try (KubeCluster cluster = KubeCluster.start(POLICIES, fenceYaml(bmcs, "bench-"))) {
                KubernetesClient client = cluster.client();
                for (int i = 1; i <= healthy(runs); i++) {
                    client.nodes().resource(KubeNodes.minimal("healthy-" + i, true, Instant.now())).create();
                }
                try (RemedyOperator operator = operator(cluster.operatorClient(), transport)) {
                    operator.start();
                    if (!KubeCluster.await(30_000, () -> operator.leading() && operator.ready())) {
                        System.out.println("  the operator did not lead and sync within 30 s; no figures");
                        return;
                    }
                    KubeCluster.sleep(1_000);
                    long idleStart = cluster.requests();
                    long idleNanos = System.nanoTime();
                    KubeCluster.sleep(3_000);
                    double idlePerSecond = (cluster.requests() - idleStart) / ((System.nanoTime() - idleNanos) / 1e9);
                    timeToSafe(cluster, operator, runs, idlePerSecond);
                    idle(cluster, operator, window);
                }
            }
        }
    }

    private static void timeToSafe(KubeCluster cluster, RemedyOperator operator, int runs, double idlePerSecond) {
        KubernetesClient client = cluster.client();
        Timer timer = operator.meters().timer(RemedyMetrics.TIME_TO_SAFE);
        List<Double> safe = new ArrayList<>();
        List<Double> createdToSafe = new ArrayList<>();
        List<Double> requests = new ArrayList<>();
        for (int i = 1; i <= runs; i++) {
            String name = String.format(Locale.ROOT, "bench-%02d", i);
            long count = timer.count();
            double total = timer.totalTime(TimeUnit.MILLISECONDS);
            long before = cluster.requests();
            long start = System.nanoTime();
            client.nodes().resource(KubeNodes.minimal(name, false, Instant.now().minus(Duration.ofMinutes(10))))
                    .create();
            if (!KubeCluster.await(30_000, () -> timer.count() > count)) {
                System.out.printf(Locale.ROOT, "  run %d: %s was not released within 30 s; stopping here; its Events:"
                        + " %s%n", i, name, client.events().v1().events().inNamespace("default").list().getItems()
                        .stream().filter(e -> name.equals(e.getRegarding().getName()))
                        .map(e -> e.getReason() + ": " + e.getNote()).toList());
                break;
            }
            createdToSafe.add((System.nanoTime() - start) / 1e6);
            safe.add(timer.totalTime(TimeUnit.MILLISECONDS) - total);
            // the flow powers the node on again and then waits for it to be Ready: say so once it waits
            if (!KubeCluster.await(30_000, API_POLL, () -> "done".equals(state(client, name)))) {
                System.out.printf(Locale.ROOT, "  run %d: %s's flow did not wait for Ready within 30 s (state %s);"
                        + " stopping here%n", i, name, state(client, name));
                break;
            }
            markReady(client, name);
            if (!KubeCluster.await(30_000, API_POLL, () -> "final".equals(state(client, name)))) {
                System.out.printf(Locale.ROOT, "  run %d: %s's flow did not finish within 30 s of Ready (state %s);"
                        + " stopping here%n", i, name, state(client, name));
                break;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            requests.add(cluster.requests() - before - idlePerSecond * seconds);
        }
        if (safe.isEmpty()) {
            return;
        }
        int clusterSize = healthy(runs) + runs;
        Duration snr = SafeTimeSettings.ofDefaults().effectiveSafeTime(SafeTimeSettings.DEFAULT_SAFE_TIME,
                clusterSize);
        double median = IpmiPeerBenchmark.median(safe);
        double p99 = percentile(safe, 0.99);
        double ratio = snr.toMillis() / median;
        System.out.printf(Locale.ROOT, "  time to safe over %d fences (a fresh NotReady node per run, created with its"
                + " lastTransitionTime 10 min back, past the policy's 300 s; ipmi agent over RMCP+ to the IPMI simulator"
                + " on 127.0.0.1, OFF confirmed by status; FlowSettings hold %d ms, engine tick %d ms; measured by the"
                + " operator's Timer %s: from the flow's start at the decision to the release done, out-of-service"
                + " taint added; no pods to delete: the mock server's spec.nodeName field selector matches none)%n",
                safe.size(), HOLD.toMillis(), TICK.toMillis(), RemedyMetrics.TIME_TO_SAFE);
        System.out.printf(Locale.ROOT, "    median %.1f ms, p99 %.1f ms, max %.1f ms; node created -> released, polled"
                + " every 5 ms: median %.1f ms%n", median, p99, percentile(safe, 1.0),
                IpmiPeerBenchmark.median(createdToSafe));
        System.out.printf(Locale.ROOT, "    self-node-remediation's safe time with its defaults (SafeTimeSettings,"
                + " %d nodes): %d s; remedy is %.0fx sooner at the median, %.0fx at p99 (target >= 50x: %s)%n",
                clusterSize, snr.toSeconds(), ratio, snr.toMillis() / p99, ratio >= 50 ? "PASS" : "MISS");
        System.out.printf(Locale.ROOT, "  API requests per full fence (node created to flow final, Ready set by the"
                + " benchmark, whose own requests are not counted; minus the idle rate of %.2f req/s over the same time): median %.0f, max %.0f%n",
                idlePerSecond, requests.isEmpty() ? Double.NaN : IpmiPeerBenchmark.median(requests),
                requests.isEmpty() ? Double.NaN : percentile(requests, 1.0));
    }

    private static void idle(KubeCluster cluster, RemedyOperator operator, int window) {
        KubernetesClient client = cluster.client();
        int existing = client.nodes().list().getItems().size();
        for (int i = existing; i < IDLE_NODES; i++) {
            client.nodes().resource(KubeNodes.minimal(String.format(Locale.ROOT, "idle-%03d", i), true,
                    Instant.now())).create();
        }
        int nodes = Math.max(existing, IDLE_NODES);
        Gauge tracked = operator.meters().find(RemedyMetrics.NODES).gauge();
        if (!KubeCluster.await(30_000, () -> tracked != null && tracked.value() >= nodes)) {
            System.out.println("  the operator did not track the idle nodes within 30 s; no idle figure");
            return;
        }
        KubeCluster.sleep(2_000);
        Map<String, Long> paths = cluster.byPath();
        long total = cluster.requests();
        long lease = cluster.shardLeaseRequests();
        long start = System.nanoTime();
        KubeCluster.sleep(window * 1_000L);
        double seconds = (System.nanoTime() - start) / 1e9;
        long leaseRequests = cluster.shardLeaseRequests() - lease;
        long others = cluster.requests() - total - leaseRequests;
        Map<String, Long> otherPaths = KubeCluster.since(paths, cluster.byPath());
        otherPaths.keySet().removeIf(path -> path.contains("/namespaces/" + KubeCluster.NAMESPACE + "/leases"));
        System.out.printf(Locale.ROOT, "  idle: %d Ready nodes watched for %.1f s (operator leading, informers on"
                + " their default %d min resync): %d requests other than the shard Lease = %.2f per idle node per"
                + " hour (target 0, watches only: %s)%s%n", nodes, seconds, NodeWatcher.DEFAULT_RESYNC.toMinutes(),
                others, others * 3600.0 / seconds / nodes, others == 0 ? "PASS" : "MISS",
                others == 0 ? "" : "; " + otherPaths);
        System.out.printf(Locale.ROOT, "    shard Lease (per shard, not per node): %d requests = %.0f per hour (get"
                + " and update every renewal, retry period %s)%n", leaseRequests, leaseRequests * 3600.0 / seconds,
                dev.remedy.fence.kube.ha.ShardLeadership.DEFAULT_RETRY_PERIOD);
    }

    /** Sets the node Ready, again on a 409 (the operator edits the node too). */
    private static void markReady(KubernetesClient client, String name) {
        for (int attempt = 1; ; attempt++) {
            try {
                client.nodes().withName(name).edit(n -> {
                    n.getStatus().setConditions(List.of(KubeNodes.ready(true, Instant.now())));
                    n.getStatus().getNodeInfo().setBootID("boot-2");
                    return n;
                });
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 20) {
                    throw e;
                }
            }
        }
    }

    private static String state(KubernetesClient client, String node) {
        NodeFenceResource fence = client.resources(NodeFenceResource.class).withName(node).get();
        return fence == null ? null : fence.getSpec().getState();
    }

    static double percentile(List<Double> values, double quantile) {
        List<Double> sorted = values.stream().sorted().toList();
        int index = (int) Math.ceil(quantile * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
