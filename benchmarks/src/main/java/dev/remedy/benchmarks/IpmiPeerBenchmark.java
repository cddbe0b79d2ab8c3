package dev.remedy.benchmarks;

import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.fence.ipmi.IpmiTransport;
import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.ipmi.IpmiSimProcess;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * remedy's IPMI agent against the peers, all against one OpenIPMI {@code ipmi_sim} on loopback in the same run:
 * median latency of STATUS and of OFF with confirmation for remedy (in-process, warm), {@code ipmitool},
 * freeipmi's {@code ipmipower} and {@code fence_ipmilan} (with its defaults; each a new process per call), with
 * ratios. Every row says what ran: remedy's options, or the peer's command line with its password masked.
 * Targets: STATUS at least 10x faster than ipmitool, OFF-confirmed at least 20x faster than fence_ipmilan.
 */
final class IpmiPeerBenchmark {

    /** Warm-up runs before remedy's measured runs: the JIT needs about a thousand to settle. */
    private static final int REMEDY_WARMUP = 1_000;
    private static final int REMEDY_RUNS = 300;
    private static final int IPMITOOL_RUNS = 20;
    private static final int FENCE_STATUS_RUNS = 10;
    private static final int FENCE_OFF_RUNS = 3;

    private IpmiPeerBenchmark() {
    }

    /** Runs the benchmark and prints its figures. */
    static void main(String[] args) throws IOException {
        System.out.println("IPMI: remedy vs ipmitool, ipmipower and fence_ipmilan against one ipmi_sim on loopback (suite 3)");
        if (!IpmiSimProcess.available()) {
            System.out.println("  skipped: ipmi_sim is not installed (Debian package openipmi)");
            return;
        }
        Path work = Files.createTempDirectory("remedy-ipmi-bench");
        try (IpmiSimProcess sim = IpmiSimProcess.start(work);
                IpmiTransport transport = IpmiTransport.create()) {
            IpmiFenceAgentProvider provider = new IpmiFenceAgentProvider(transport);
            AgentConfig fresh = config(provider, sim, false);
            AgentConfig reuse = config(provider, sim, true);
            double status = remedyMedian(provider, fresh, FenceAction.STATUS, () -> { });
            double statusReused = remedyMedian(provider, reuse, FenceAction.STATUS, () -> { });
            double off = remedyMedian(provider, fresh, FenceAction.OFF, () -> sim.powerTarget().power(PowerState.ON));
            PeerCommand ipmitool = ipmitool(sim);
            PeerCommand ipmipower = ipmipower(sim, work);
            PeerCommand fenceStatus = fenceIpmilan(sim, "status");
            PeerCommand fenceOff = fenceIpmilan(sim, "off");
            double ipmitoolMs = peerMedian(ipmitool, IPMITOOL_RUNS, () -> { });
            double ipmipowerMs = peerMedian(ipmipower, IPMITOOL_RUNS, () -> { });
            double fenceStatusMs = peerMedian(fenceStatus, FENCE_STATUS_RUNS, () -> { });
            double fenceOffMs = peerMedian(fenceOff, FENCE_OFF_RUNS, () -> sim.powerTarget().power(PowerState.ON));
            System.out.printf(Locale.ROOT, "  %-44s %10s %10s%n", "median latency per operation", "ms", "ratio");
            remedyRow("remedy STATUS (new session each time)", status, fresh);
            remedyRow("remedy STATUS (session_reuse=true)", statusReused, reuse);
            peerRow("ipmitool chassis power status", ipmitoolMs, ipmitoolMs / status, ipmitool, sim);
            peerRow("ipmipower --stat (freeipmi)", ipmipowerMs, ipmipowerMs / status, ipmipower, sim);
            peerRow("fence_ipmilan action=status", fenceStatusMs, fenceStatusMs / status, fenceStatus, sim);
            remedyRow("remedy OFF, confirmed by status", off, fresh);
            peerRow("fence_ipmilan action=off (default waits)", fenceOffMs, fenceOffMs / off, fenceOff, sim);
            verdict("STATUS: ipmitool / remedy", ipmitoolMs / status, 10, ipmitool);
            verdict("STATUS, session reused: ipmitool / remedy", ipmitoolMs / statusReused, 10, ipmitool);
            verdict("OFF confirmed: fence_ipmilan / remedy", fenceOffMs / off, 20, fenceOff);
            System.out.println("  (ratio column: the peer's median divided by remedy's. remedy is measured in this JVM"
                    + " on a warm client (" + REMEDY_WARMUP + " calls before the " + REMEDY_RUNS + " measured);"
                    + " every peer call starts a new process, and its figure includes that start. remedy's STATUS"
                    + " without reuse opens and closes a full RMCP+ session every time, like the peers; every status"
                    + " read also runs ipmi_sim's chassis-control shell script, about 1 ms of each figure)");
        }
    }

    private static AgentConfig config(IpmiFenceAgentProvider provider, IpmiSimProcess sim, boolean reuse) {
        return provider.configure().set("ip", sim.host()).set("ipport", Integer.toString(sim.port()))
                .set("username", sim.user()).secret("password", Secret.of(sim.password()))
                // suite 3, as the peers run: ipmi_sim has no suite 17 and ignores Get Channel Cipher Suites
                .set("cipher", "3").set("session_reuse", Boolean.toString(reuse)).build();
    }

    private static double remedyMedian(IpmiFenceAgentProvider provider, AgentConfig config, FenceAction action,
            Runnable before) {
        List<Double> millis = new ArrayList<>();
        try (FenceAgent agent = provider.create(config)) {
            for (int i = 0; i < REMEDY_WARMUP + REMEDY_RUNS; i++) {
                before.run();
                long start = System.nanoTime();
                FenceOutcome outcome = agent.execute(new FenceRequest(action, "benchmark"),
                        FenceContext.start(TimeSource.system(), Duration.ofSeconds(10)));
                long took = System.nanoTime() - start;
                if (!outcome.isSuccess()) {
                    throw new IllegalStateException("remedy " + action + " failed: " + outcome);
                }
                if (i >= REMEDY_WARMUP) {
                    millis.add(took / 1e6);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        return median(millis);
    }

    private static PeerCommand ipmitool(IpmiSimProcess sim) {
        return new PeerCommand(List.of("ipmitool", "-I", "lanplus", "-C", "3", "-H", sim.host(), "-p",
                Integer.toString(sim.port()), "-U", sim.user(), "-E", "chassis", "power", "status"),
                Map.of("IPMI_PASSWORD", sim.password()), "", Duration.ofSeconds(30));
    }

    /**
     * freeipmi's ipmipower; the password goes in a config file only the owner can read. {@code -W opensesspriv}
     * works around ipmi_sim echoing privilege 0 in its Open Session Response, which ipmipower otherwise refuses.
     */
    private static PeerCommand ipmipower(IpmiSimProcess sim, Path work) throws IOException {
        Path config = Files.createFile(work.resolve("freeipmi.conf"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        Files.writeString(config, "username " + sim.user() + "\npassword " + sim.password() + "\n");
        return new PeerCommand(List.of("ipmipower", "--config-file=" + config, "-D", "LAN_2_0", "-I", "3", "-W",
                "opensesspriv", "-h", sim.host() + ":" + sim.port(), "--stat"), Map.of(), "", Duration.ofSeconds(30));
    }

    private static PeerCommand fenceIpmilan(IpmiSimProcess sim, String action) {
        String stdin = "action=" + action + "\nip=" + sim.host() + "\nipport=" + sim.port() + "\nusername="
                + sim.user() + "\npassword=" + sim.password() + "\nlanplus=1\ncipher=3\n";
        return new PeerCommand(List.of("fence_ipmilan"), Map.of(), stdin, Duration.ofSeconds(60));
    }

    private static double peerMedian(PeerCommand command, int runs, Runnable before) {
        String program = command.command().get(0);
        if (PeerPrograms.find(program).isEmpty()) {
            System.out.println("  " + program + " is not installed: its figures are skipped");
            return Double.NaN;
        }
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            before.run();
            PeerCommand.Result result;
            try {
                result = command.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            if (result.exitCode() != 0 && !(result.exitCode() == 2 && result.output().contains("OFF"))) {
                System.out.println("  " + program + " failed (exit " + result.exitCode() + "): " + result.output());
                return Double.NaN;
            }
            millis.add(result.nanos() / 1e6);
        }
        return median(millis);
    }

    private static void remedyRow(String what, double millis, AgentConfig config) {
        System.out.printf(Locale.ROOT, "  %-44s %10.2f%n", what, millis);
        System.out.println("      ran: " + config + ", in this JVM, warm client (" + REMEDY_WARMUP
                + " calls before the measured ones)");
    }

    private static void peerRow(String what, double millis, double ratio, PeerCommand command, IpmiSimProcess sim) {
        System.out.printf(Locale.ROOT, "  %-44s %10.2f %10s  %s%n", what, millis,
                Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "x%.1f", ratio),
                PeerLabel.ratioNote(PeerLabel.program(command)));
        System.out.println("      ran: " + PeerLabel.commandLine(command, sim.password()));
    }

    private static void verdict(String what, double ratio, double target, PeerCommand peer) {
        System.out.printf(Locale.ROOT, "  %-44s x%.1f (target >= x%.0f: %s) %s%n", what, ratio, target,
                Double.isNaN(ratio) ? "NOT MEASURED" : ratio >= target ? "met" : "MISSED",
                PeerLabel.ratioNote(PeerLabel.program(peer)));
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
