package dev.remedy.benchmarks;

import dev.remedy.fence.redfish.RedfishFenceAgentProvider;
import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.simulators.redfish.SimulatedSystem;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * The redfish agent against the Redfish simulator of remedy-simulators on loopback: median latency of OFF confirmed by
 * PowerState (service root, session login, system, ForceOff, poll, logout) and of STATUS, over verified TLS, next
 * to ClusterLabs' {@code fence_redfish} doing the same against the same simulator in the same run (a process per
 * action, as Pacemaker runs it); then 500 systems fenced at once through {@code executeAsync} over plain HTTP
 * (total time, threads, heap).
 */
final class RedfishBenchmark {

    private static final String PASSWORD = "bench-redfish-1";
    private static final int WARMUP = 300;
    private static final int RUNS = 200;
    private static final int PEER_RUNS = 15;
    private static final int FLEET = 500;

    private RedfishBenchmark() {
    }

    /** Runs the benchmark and prints its figures. */
    static void main(String[] args) throws InterruptedException, IOException {
        System.out.println("Redfish: one system on the testkit simulator, loopback, TLS verified by both clients;"
                + " median ms (remedy: session login and logout each time)");
        RedfishFenceAgentProvider provider = new RedfishFenceAgentProvider();
        Path work = Files.createTempDirectory("remedy-redfish-bench");
        try (RedfishSimulator simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD)
                .systems("node-1").tls(true).build())) {
            Path caFile = Files.writeString(work.resolve("simulator.pem"), simulator.certificate().pem());
            SimulatedSystem node = simulator.system("node-1");
            double off;
            double status;
            try (FenceAgent agent = provider.create(config(provider, simulator, "node-1")
                    .set("ca_file", caFile.toString()).build())) {
                off = remedyMedian(agent, FenceAction.OFF, node);
                status = remedyMedian(agent, FenceAction.STATUS, node);
            }
            double peerOff = fenceRedfish(simulator, caFile, "off", node);
            double peerStatus = fenceRedfish(simulator, caFile, "status", node);
            System.out.printf(Locale.ROOT, "  %-34s %10s %16s %8s%n", "action", "remedy", "fence_redfish", "ratio");
            row("OFF confirmed", off, peerOff);
            row("STATUS", status, peerStatus);
        } finally {
            try (var files = Files.list(work)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(work);
        }
        fleet(provider);
    }

    private static double remedyMedian(FenceAgent agent, FenceAction action, SimulatedSystem node)
            throws InterruptedException {
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < WARMUP + RUNS; i++) {
            node.powerTarget().power(PowerState.ON);
            long start = System.nanoTime();
            FenceOutcome outcome = agent.execute(new FenceRequest(action, "benchmark"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(10)));
            if (!outcome.isSuccess()) {
                throw new IllegalStateException(action + " failed: " + outcome);
            }
            if (i >= WARMUP) {
                millis.add((System.nanoTime() - start) / 1e6);
            }
        }
        return IpmiPeerBenchmark.median(millis);
    }

    /** fence_redfish's median for one action, options and password on standard input; NaN when not installed. */
    private static double fenceRedfish(RedfishSimulator simulator, Path caFile, String action, SimulatedSystem node)
            throws InterruptedException {
        if (PeerPrograms.find("fence_redfish").isEmpty()) {
            System.out.println("  fence_redfish is not installed (apt-get install -y fence-agents): peer skipped");
            return Double.NaN;
        }
        PeerCommand command = new PeerCommand(List.of("fence_redfish"), Map.of("REQUESTS_CA_BUNDLE",
                caFile.toString()), "action=" + action + "\nip=127.0.0.1\nipport=" + simulator.port()
                + "\nusername=admin\npassword=" + PASSWORD + "\nssl_secure=1\nsystems_uri=" + node.path() + "\n",
                Duration.ofSeconds(60));
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < PEER_RUNS; i++) {
            node.powerTarget().power(PowerState.ON);
            PeerCommand.Result result = command.run();
            if (result.exitCode() != 0) {
                System.out.println("  fence_redfish " + action + " failed (exit " + result.exitCode() + "): "
                        + result.output());
                return Double.NaN;
            }
            millis.add(result.nanos() / 1e6);
        }
        return IpmiPeerBenchmark.median(millis);
    }

    private static void row(String what, double remedy, double peer) {
        System.out.printf(Locale.ROOT, "  %-34s %10.2f %16.2f %8s%n", what, remedy, peer,
                Double.isNaN(peer) ? "" : String.format(Locale.ROOT, "x%.1f", peer / remedy));
    }

    private static void fleet(RedfishFenceAgentProvider provider) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (RedfishSimulator simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD)
                .systemCount(FLEET).maxSessions(FLEET * 2).threads(8).build())) {
            List<FenceAgent> agents = simulator.systems().stream()
                    .map(system -> provider.create(config(provider, simulator, system.id()).build())).toList();
            System.gc();
            long heapBefore = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            threads.resetPeakThreadCount();
            List<Double> rounds = new ArrayList<>();
            for (int round = 0; round < 5; round++) {
                simulator.systems().forEach(system -> system.powerTarget().power(PowerState.ON));
                long start = System.nanoTime();
                List<CompletableFuture<FenceOutcome>> offs = agents.stream().map(agent -> agent.executeAsync(
                        new FenceRequest(FenceAction.OFF, "fleet"), FenceContext.start(TimeSource.system(),
                                Duration.ofSeconds(30)), Runnable::run)).toList();
                CompletableFuture.allOf(offs.toArray(CompletableFuture[]::new)).join();
                double took = (System.nanoTime() - start) / 1e6;
                long failed = offs.stream().map(CompletableFuture::join).filter(o -> !o.isSuccess()).count();
                rounds.add(took);
                System.out.printf(Locale.ROOT, "  %d systems OFF confirmed at once, round %d: %.0f ms, %d failed,"
                        + " sessions left open %d%n", FLEET, round + 1, took, failed, simulator.activeSessions());
                offs.stream().map(CompletableFuture::join).filter(o -> !o.isSuccess()).findFirst()
                        .ifPresent(o -> System.out.println("    first failure: " + o));
            }
            System.out.println("  live threads by name now: " + Thread.getAllStackTraces().keySet().stream()
                    .collect(java.util.stream.Collectors.groupingBy(t -> t.getName().replaceAll("[0-9]+", "N"),
                            java.util.TreeMap::new, java.util.stream.Collectors.counting())));
            System.gc();
            long heapAfter = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            System.out.printf(Locale.ROOT, "  common fork-join parallelism %d%s%n", ForkJoinPool.getCommonPoolParallelism(),
                    ForkJoinPool.getCommonPoolParallelism() < 2 ? " (below 2 the JDK HTTP client starts a thread per"
                            + " response: see the run with -Djava.util.concurrent.ForkJoinPool.common.parallelism=2)"
                            : "");
            System.out.printf(Locale.ROOT, "  median of rounds 2-5: %.0f ms; JVM peak %d live threads (agent pool of 2,"
                    + " HttpClient selector, simulator's 8 workers and its acceptor included); heap after a GC %.1f MiB"
                    + " before, %.1f MiB after%n", IpmiPeerBenchmark.median(rounds.subList(1, rounds.size())),
                    threads.getPeakThreadCount(), heapBefore / 1048576.0, heapAfter / 1048576.0);
        }
    }

    private static AgentConfig.Builder config(RedfishFenceAgentProvider provider, RedfishSimulator simulator,
            String plug) {
        return provider.configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(simulator.port()))
                .set("ssl", Boolean.toString(simulator.tls())).set("username", "admin")
                .secret("password", Secret.of(PASSWORD)).set("plug", plug).set("poll_interval", "20ms");
    }
}
