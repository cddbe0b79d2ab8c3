package dev.remedy.benchmarks;

import dev.remedy.fence.snmp.SnmpFenceAgentProvider;
import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.snmp.SnmpAgentSimulator;
import dev.remedy.simulators.snmp.SnmpDevice;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.simulators.snmp.SnmpOutlet;
import dev.remedy.simulators.snmp.SnmpdProcess;
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
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code snmp} agent against Debian's {@code snmpd} serving an emulated APC Switched Rack PDU through
 * {@code pass_persist} (remedy-simulators' {@link SnmpdProcess}), next to ClusterLabs' {@code fence_apc_snmp} on the
 * same PDU and outlet in the same run: median STATUS and OFF confirmed (remedy reads the outlet back;
 * fence_apc_snmp polls its status with its defaults), remedy in this JVM on a warm agent, and remedy as Pacemaker
 * runs it, the {@code fence_remedy_snmp} launcher of {@code remedy.jar fence-agents install}, one-shot and resident,
 * a process per call like the peer; ratios remedy / peer, each saying how its two sides were measured. Then 200
 * outlets on 20 PDUs fenced at once: 20 in-JVM {@link SnmpAgentSimulator}s (not snmpd), 200 agents of one outlet
 * each through {@code executeAsync} on a pool of 200 threads and on the engine's default 8 (total time, threads,
 * heap).
 */
final class SnmpBenchmark {

    private static final int OUTLETS = 8;
    private static final int PLUG = 2;
    private static final int WARMUP = 300;
    private static final int RUNS = 200;
    private static final int PROCESS_STATUS_RUNS = 15;
    private static final int PROCESS_OFF_RUNS = 7;
    private static final int PDUS = 20;
    private static final int OUTLETS_PER_PDU = 10;
    private static final int ROUNDS = 5;
    private static final int ENGINE_THREADS = 8;
    private static final String FLEET_COMMUNITY = "bench-fleet-rw";

    private SnmpBenchmark() {
    }

    /** Runs the benchmark; {@code args[0]}, if given, is remedy.jar (default remedy-cli/target/remedy.jar). */
    static void main(String[] args) throws IOException, InterruptedException {
        System.out.println("SNMP: the snmp agent vs fence_apc_snmp against Debian's snmpd serving an emulated APC"
                + " Switched Rack PDU (pass_persist), outlet " + PLUG + ", SNMP v2c on loopback; median ms");
        Path jar = AgentLaunchers.jar(args);
        if (PeerPrograms.find("snmpd").isEmpty() || PeerPrograms.find("snmpget").isEmpty()) {
            System.out.println("  skipped: needs snmpd and snmpget (apt-get install -y snmpd snmp)");
        } else {
            Path work = Files.createTempDirectory("remedy-snmp-bench");
            try (SnmpdProcess pdu = SnmpdProcess.start(work.resolve("pdu"),
                    SnmpDeviceSpec.of("bench-pdu", SnmpDeviceKind.APC_RACK_PDU, OUTLETS))) {
                againstSnmpd(pdu, work, jar);
            } finally {
                AgentLaunchers.stopServer(jar);
                AgentLaunchers.delete(work);
            }
        }
        fleet(PDUS * OUTLETS_PER_PDU);
        fleet(ENGINE_THREADS);
    }

    private static void againstSnmpd(SnmpdProcess pdu, Path work, Path jar) throws IOException,
            InterruptedException {
        SnmpOutletOn on = new SnmpOutletOn(pdu);
        String options = "ip=" + pdu.host() + "\nipport=" + pdu.port() + "\ncommunity=" + pdu.community()
                + "\nsnmp_version=2c\nplug=" + PLUG + "\n";
        String remedyOptions = options + "profile=apc\npoll_interval=20ms\n";
        SnmpFenceAgentProvider provider = new SnmpFenceAgentProvider();
        AgentConfig config = provider.configure().set("ip", pdu.host()).set("ipport", Integer.toString(pdu.port()))
                .secret("community", Secret.of(pdu.community())).set("snmp_version", "2c").set("profile", "apc")
                .set("plug", Integer.toString(PLUG)).set("poll_interval", "20ms").build();
        double status;
        double off;
        try (FenceAgent agent = provider.create(config)) {
            status = inProcess(agent, FenceAction.STATUS, on);
            off = inProcess(agent, FenceAction.OFF, on);
        }
        PeerCommand peerStatus = peer(pdu, "action=status\n" + options);
        PeerCommand peerOff = peer(pdu, "action=off\n" + options);
        boolean peerInstalled = PeerPrograms.find("fence_apc_snmp").isPresent();
        double peerStatusMs = peerInstalled ? AgentLaunchers.median(peerStatus, PROCESS_STATUS_RUNS, on) : Double.NaN;
        double peerOffMs = peerInstalled ? AgentLaunchers.median(peerOff, PROCESS_OFF_RUNS, on) : Double.NaN;
        if (!peerInstalled) {
            System.out.println("  fence_apc_snmp is not installed (apt-get install -y fence-agents): peer skipped");
        }
        System.out.printf(Locale.ROOT, "  %-68s %9s %12s%n", "median per call", "ms", "remedy/peer");
        String inJvm = PeerLabel.ratioNote("fence_apc_snmp");
        row("remedy snmp STATUS, in-process (warm agent)", status, status / peerStatusMs, inJvm);
        row("remedy snmp OFF, read back OFF, in-process (warm agent)", off, off / peerOffMs, inJvm);
        System.out.println("      ran: " + config + ", in this JVM (" + WARMUP + " calls before the " + RUNS
                + " measured)");
        if (Files.isRegularFile(jar)) {
            launchers(jar, work, remedyOptions, pdu.community(), on, peerStatusMs, peerOffMs);
        } else {
            System.out.println("  fence_remedy_snmp skipped: needs " + jar + " (./mvnw -pl remedy-cli -am package)");
        }
        row("fence_apc_snmp action=status", peerStatusMs, Double.NaN, "");
        row("fence_apc_snmp action=off (its defaults: polls status until off)", peerOffMs, Double.NaN, "");
        System.out.println("      ran: " + PeerLabel.commandLine(peerOff, pdu.community()));
        System.out.println("  (every device request goes through snmpd to the pass_persist emulator, a JVM that reads"
                + " and writes the PDU's state file; fence_apc_snmp runs net-snmp's snmpget/snmpset as a process per"
                + " request)");
    }

    /** fence_remedy_snmp one-shot and resident, whole processes with their options on stdin, as the peer. */
    private static void launchers(Path jar, Path work, String options, String secret, Runnable on,
            double peerStatus, double peerOff) throws IOException, InterruptedException {
        Path oneShot = AgentLaunchers.install(jar, Files.createDirectory(work.resolve("launchers")), false)
                .resolve("fence_remedy_snmp");
        Path resident = AgentLaunchers.install(jar, Files.createDirectory(work.resolve("resident")), true)
                .resolve("fence_remedy_snmp");
        PeerCommand status = AgentLaunchers.command(oneShot, "action=status\n" + options);
        Path archive = Path.of(jar + ".fence_remedy_snmp.jsa");
        boolean archived = Files.isRegularFile(archive)
                && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0;
        double first = AgentLaunchers.millis(status, on);
        double startup = AgentLaunchers.median(AgentLaunchers.command(oneShot, "action=metadata\n"),
                PROCESS_STATUS_RUNS, () -> { });
        double oneShotStatus = AgentLaunchers.median(status, PROCESS_STATUS_RUNS, on);
        double oneShotOff = AgentLaunchers.median(AgentLaunchers.command(oneShot, "action=off\n" + options),
                PROCESS_OFF_RUNS, on);
        PeerCommand residentStatusCommand = AgentLaunchers.command(resident, "action=status\n" + options);
        double serverStart = AgentLaunchers.startServer(residentStatusCommand, jar);
        double residentStatus = AgentLaunchers.median(residentStatusCommand, PROCESS_STATUS_RUNS, on);
        double residentOff = AgentLaunchers.median(AgentLaunchers.command(resident, "action=off\n" + options),
                PROCESS_OFF_RUNS, on);
        String same = "(both a new process per call, options on stdin)";
        row("fence_remedy_snmp action=status (one-shot)", oneShotStatus, oneShotStatus / peerStatus, same);
        row("fence_remedy_snmp action=status (resident)", residentStatus, residentStatus / peerStatus, same);
        row("fence_remedy_snmp action=off, reads OFF back (one-shot)", oneShotOff, oneShotOff / peerOff, same);
        row("fence_remedy_snmp action=off, reads OFF back (resident)", residentOff, residentOff / peerOff, same);
        row("fence_remedy_snmp action=metadata (start-up: JVM, provider, no I/O)", startup, Double.NaN, "");
        row("fence_remedy_snmp's first status" + (archived ? " (its CDS archive already there)"
                : ", which writes its CDS archive"), first, Double.NaN, "");
        row("resident: first call, one-shot, until its server answers", serverStart, Double.NaN, "");
        System.out.println("      ran: " + PeerLabel.commandLine(status, secret) + ", and the same with action=off,"
                + " and both through " + resident);
        AgentLaunchers.verdict("fence_remedy_snmp one-shot / fence_apc_snmp", "STATUS", oneShotStatus, peerStatus);
        AgentLaunchers.verdict("fence_remedy_snmp resident / fence_apc_snmp", "STATUS", residentStatus, peerStatus);
        AgentLaunchers.verdict("fence_remedy_snmp one-shot / fence_apc_snmp", "OFF", oneShotOff, peerOff);
        AgentLaunchers.verdict("fence_remedy_snmp resident / fence_apc_snmp", "OFF", residentOff, peerOff);
    }

    /** Median of {@link #RUNS} calls of {@code action} after {@link #WARMUP}, the outlet switched on before each. */
    private static double inProcess(FenceAgent agent, FenceAction action, Runnable on) throws InterruptedException {
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < WARMUP + RUNS; i++) {
            on.run();
            long start = System.nanoTime();
            FenceOutcome outcome = agent.execute(new FenceRequest(action, "benchmark"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(10)));
            long took = System.nanoTime() - start;
            if (!outcome.isSuccess()) {
                throw new IllegalStateException("remedy snmp " + action + " failed: " + outcome);
            }
            if (i >= WARMUP) {
                millis.add(took / 1e6);
            }
        }
        return IpmiPeerBenchmark.median(millis);
    }

    private static PeerCommand peer(SnmpdProcess pdu, String stdin) {
        return new PeerCommand(List.of("fence_apc_snmp"), pdu.clientEnvironment(), stdin, Duration.ofSeconds(60));
    }

    /**
     * 200 agents of one outlet each on 20 in-JVM PDUs, all OFF at once through {@code executeAsync} on a pool of
     * {@code threads}; each agent kept across the rounds (as the engine keeps them), every outlet on before a round
     * and checked off on its PDU after it.
     */
    private static void fleet(int threads) throws InterruptedException {
        int outlets = PDUS * OUTLETS_PER_PDU;
        System.out.printf(Locale.ROOT, "SNMP fleet: %d outlets on %d PDUs (in-JVM SNMP agent simulators of"
                + " remedy-simulators, not snmpd), one agent per outlet, OFF confirmed for all at once through"
                + " executeAsync on a pool of %d threads%s%n", outlets, PDUS, threads,
                threads == ENGINE_THREADS ? " (the engine's default)" : "");
        ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();
        List<SnmpAgentSimulator> pdus = new ArrayList<>();
        AtomicInteger names = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "bench-snmp-"
                + names.incrementAndGet()));
        List<FenceAgent> agents = new ArrayList<>();
        try {
            SnmpFenceAgentProvider provider = new SnmpFenceAgentProvider();
            for (int p = 1; p <= PDUS; p++) {
                SnmpAgentSimulator simulator = SnmpAgentSimulator.start(SnmpDevice.create(SnmpDeviceSpec.of(
                        "fleet-pdu-" + p, SnmpDeviceKind.APC_RACK_PDU, OUTLETS_PER_PDU), Clock.systemUTC()),
                        SnmpAgentSimulator.Access.community(FLEET_COMMUNITY));
                pdus.add(simulator);
                for (int outlet = 1; outlet <= OUTLETS_PER_PDU; outlet++) {
                    agents.add(provider.create(provider.configure().set("ip", simulator.host())
                            .set("ipport", Integer.toString(simulator.port()))
                            .secret("community", Secret.of(FLEET_COMMUNITY)).set("profile", "apc")
                            .set("plug", Integer.toString(outlet)).set("poll_interval", "20ms").build()));
                }
            }
            System.gc();
            long heapBefore = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            threadBean.resetPeakThreadCount();
            List<Double> rounds = new ArrayList<>();
            for (int round = 1; round <= ROUNDS; round++) {
                pdus.forEach(pdu -> pdu.device().outlets().forEach(o -> o.power(PowerState.ON)));
                long start = System.nanoTime();
                List<CompletableFuture<FenceOutcome>> offs = agents.stream().map(agent -> agent.executeAsync(
                        new FenceRequest(FenceAction.OFF, "fleet"), FenceContext.start(TimeSource.system(),
                                Duration.ofSeconds(30)), pool)).toList();
                CompletableFuture.allOf(offs.toArray(CompletableFuture[]::new)).join();
                double took = (System.nanoTime() - start) / 1e6;
                long failed = offs.stream().map(CompletableFuture::join).filter(o -> !o.isSuccess()).count();
                long readOff = pdus.stream().flatMap(pdu -> pdu.device().outlets().stream())
                        .map(SnmpOutlet::power).filter(PowerState.OFF::equals).count();
                rounds.add(took);
                System.out.printf(Locale.ROOT, "  round %d: %6.0f ms, %d failed, %d of %d outlets read OFF on their"
                        + " PDUs%s%n", round, took, failed, readOff, outlets, round == 1 ? " (cold)" : "");
                offs.stream().map(CompletableFuture::join).filter(o -> !o.isSuccess()).findFirst()
                        .ifPresent(o -> System.out.println("    first failure: " + o));
            }
            System.gc();
            long heapAfter = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            System.out.printf(Locale.ROOT, "  median of rounds 2-%d: %.0f ms for %d outlets; JVM peak %d live threads"
                    + " (the pool's %d, a listener thread per open SNMP session, the %d simulators' own); heap after a"
                    + " GC %.1f MiB before the rounds, %.1f MiB after (%d agents and %d simulators)%n", ROUNDS,
                    IpmiPeerBenchmark.median(rounds.subList(1, rounds.size())), outlets,
                    threadBean.getPeakThreadCount(), threads, PDUS, heapBefore / 1048576.0, heapAfter / 1048576.0,
                    outlets, PDUS);
        } finally {
            agents.forEach(FenceAgent::close);
            pool.shutdownNow();
            pdus.forEach(SnmpAgentSimulator::close);
        }
    }

    private static void row(String what, double millis, double ratio, String note) {
        System.out.printf(Locale.ROOT, "  %-68s %9.2f %12s  %s%n", what, millis,
                Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.3f", ratio), note);
    }

    /** Switches the benchmark's outlet on through the PDU's state file, behind snmpd's back. */
    private record SnmpOutletOn(SnmpdProcess pdu) implements Runnable {

        @Override
        public void run() {
            pdu.outlet(PLUG).power(PowerState.ON);
        }
    }
}
