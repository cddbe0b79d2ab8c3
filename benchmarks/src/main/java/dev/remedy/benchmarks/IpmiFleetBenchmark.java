package dev.remedy.benchmarks;

import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.fence.ipmi.IpmiTransport;
import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.Secret;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * STATUS of 1,000 simulated BMCs at once (the BMC simulator of remedy-simulators, one UDP port each) through the ipmi agent's
 * {@code executeAsync}: total time per round (target under 1 s on 2 cores), the threads the JVM ran (target at
 * most 16) and the heap in use. Every STATUS opens and closes its own RMCP+ session (cipher suite 17).
 */
final class IpmiFleetBenchmark {

    private static final int BMCS = 1_000;
    private static final int ROUNDS = 7;
    private static final String PASSWORD = "fleet-secret-1";

    private IpmiFleetBenchmark() {
    }

    /** Bytes the client's I/O threads allocated so far (HotSpot's per-thread counter), or -1 if not available. */
    private static long ioThreadAllocatedBytes() {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean hotspot)) {
            return -1;
        }
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("remedy-ipmi-"))
                .mapToLong(t -> hotspot.getThreadAllocatedBytes(t.getId())).sum();
    }

    /** Runs the benchmark and prints its figures. */
    static void main(String[] args) {
        int bmcs = args.length > 0 ? Integer.parseInt(args[0]) : BMCS;
        System.out.printf(Locale.ROOT, "IPMI fleet: STATUS of %,d simulated BMCs concurrently (new session each)%n",
                bmcs);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        try (IpmiBmcSimulator simulator = IpmiBmcSimulator.start();
                IpmiTransport transport = IpmiTransport.create()) {
            List<SimulatedBmc> fleet = simulator.addMany(bmcs, BmcSpec.builder().user("admin", PASSWORD).build());
            IpmiFenceAgentProvider provider = new IpmiFenceAgentProvider(transport);
            List<FenceAgent> agents = fleet.stream().map(bmc -> provider.create(provider.configure()
                    .set("ip", bmc.host()).set("ipport", Integer.toString(bmc.port())).set("username", "admin")
                    .secret("password", Secret.of(PASSWORD)).build())).toList();
            System.gc();
            long heapBefore = memory.getHeapMemoryUsage().getUsed();
            threads.resetPeakThreadCount();
            List<Double> millis = new ArrayList<>();
            int failures = 0;
            for (int round = 0; round < ROUNDS; round++) {
                long start = System.nanoTime();
                List<CompletableFuture<FenceOutcome>> runs = agents.stream()
                        .map(agent -> agent.executeAsync(new FenceRequest(FenceAction.STATUS, "fleet"),
                                FenceContext.start(TimeSource.system(), Duration.ofSeconds(10)), Runnable::run))
                        .toList();
                CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).join();
                double took = (System.nanoTime() - start) / 1e6;
                long failed = runs.stream().map(CompletableFuture::join).filter(o -> !o.isSuccess()).count();
                double datagrams = runs.stream().mapToInt(run -> run.join().attempts()).average().orElse(0);
                failures += (int) failed;
                millis.add(took);
                System.out.printf(Locale.ROOT, "  round %d: %8.1f ms, %d failed, %.2f datagrams sent per STATUS%s%n",
                        round + 1, took, failed, datagrams, round == 0 ? " (cold: JIT and cipher setup)" : "");
            }
            long allocated = ioThreadAllocatedBytes();
            System.gc();
            long heapAfter = memory.getHeapMemoryUsage().getUsed();
            List<Double> warm = millis.subList(1, millis.size());
            double median = IpmiPeerBenchmark.median(warm);
            int peak = threads.getPeakThreadCount();
            System.out.printf(Locale.ROOT, "  median of warm rounds: %.1f ms for %,d BMCs (target < 1000 ms: %s)%n",
                    median, bmcs, median < 1000 ? "met" : "MISSED");
            System.out.printf(Locale.ROOT, "  threads: %d I/O thread(s) in the client; JVM peak %d live threads in all,"
                    + " simulator included (target <= 16: %s)%n", transport.ioThreads(), peak, peak <= 16 ? "met" : "MISSED");
            System.out.printf(Locale.ROOT, "  heap after a GC: %.1f MiB before the rounds, %.1f MiB after (%,d agents,"
                    + " the client, and the simulator with its closed sessions lingering 2 s); the I/O thread allocated"
                    + " %.1f KiB per STATUS; failures over all rounds: %d%n", heapBefore / 1048576.0,
                    heapAfter / 1048576.0, bmcs, allocated / 1024.0 / ((double) bmcs * ROUNDS), failures);
            agents.forEach(FenceAgent::close);
        }
    }
}
