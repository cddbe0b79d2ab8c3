package dev.remedy.benchmarks;

import dev.remedy.fence.redfish.RedfishFenceAgentProvider;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.testkit.redfish.RedfishSimulator;
import dev.remedy.testkit.redfish.RedfishSpec;
import dev.remedy.testkit.redfish.SimulatedSystem;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * The redfish agent against the testkit's Redfish simulator on loopback (plain HTTP): median latency of OFF
 * confirmed by PowerState (service root, session login, system, ForceOff, poll, logout), and 500 systems fenced
 * at once through {@code executeAsync} (total time, threads, heap). No peer runs here: fence_redfish needs a
 * Python stack this machine cannot install from its registries.
 */
final class RedfishBenchmark {

    private static final String PASSWORD = "bench-redfish-1";
    private static final int WARMUP = 300;
    private static final int RUNS = 200;
    private static final int FLEET = 500;

    private RedfishBenchmark() {
    }

    /** Runs the benchmark and prints its figures. */
    static void main(String[] args) throws InterruptedException {
        System.out.println("Redfish: OFF confirmed against the testkit simulator on loopback (HTTP, session login"
                + " and logout each time)");
        RedfishFenceAgentProvider provider = new RedfishFenceAgentProvider();
        try (RedfishSimulator simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD)
                .systems("node-1").build())) {
            SimulatedSystem node = simulator.system("node-1");
            List<Double> millis = new ArrayList<>();
            try (FenceAgent agent = provider.create(config(provider, simulator, "node-1"))) {
                for (int i = 0; i < WARMUP + RUNS; i++) {
                    node.powerTarget().power(PowerState.ON);
                    long start = System.nanoTime();
                    FenceOutcome outcome = agent.execute(new FenceRequest(FenceAction.OFF, "benchmark"),
                            FenceContext.start(TimeSource.system(), Duration.ofSeconds(10)));
                    if (!outcome.isSuccess()) {
                        throw new IllegalStateException("OFF failed: " + outcome);
                    }
                    if (i >= WARMUP) {
                        millis.add((System.nanoTime() - start) / 1e6);
                    }
                }
            }
            System.out.printf(Locale.ROOT, "  OFF confirmed, median of %d after %d warm-up runs: %.2f ms%n", RUNS, WARMUP,
                    IpmiPeerBenchmark.median(millis));
        }
        fleet(provider);
    }

    private static void fleet(RedfishFenceAgentProvider provider) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (RedfishSimulator simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD)
                .systemCount(FLEET).maxSessions(FLEET * 2).threads(8).build())) {
            List<FenceAgent> agents = simulator.systems().stream()
                    .map(system -> provider.create(config(provider, simulator, system.id()))).toList();
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
            }
            System.out.println("  live threads by name now: " + Thread.getAllStackTraces().keySet().stream()
                    .collect(java.util.stream.Collectors.groupingBy(t -> t.getName().replaceAll("[0-9]+", "N"),
                            java.util.TreeMap::new, java.util.stream.Collectors.counting())));
            System.gc();
            long heapAfter = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            System.out.printf(Locale.ROOT, "  median of rounds 2-5: %.0f ms; JVM peak %d live threads (agent pool of 2,"
                    + " HttpClient selector, simulator's 8 workers and its acceptor included); heap after a GC %.1f MiB"
                    + " before, %.1f MiB after%n", IpmiPeerBenchmark.median(rounds.subList(1, rounds.size())),
                    threads.getPeakThreadCount(), heapBefore / 1048576.0, heapAfter / 1048576.0);
        }
    }

    private static AgentConfig config(RedfishFenceAgentProvider provider, RedfishSimulator simulator, String plug) {
        return provider.configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(simulator.port()))
                .set("ssl", "false").set("username", "admin").secret("password", Secret.of(PASSWORD))
                .set("plug", plug).set("poll_interval", "20ms").build();
    }
}
