package dev.remedy.benchmarks;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.ipmi.IpmiSimProcess;
import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * remedy as Pacemaker runs it, a process per operation: {@code fence_remedy_ipmi} (written by
 * {@code remedy.jar fence-agents install}) next to ClusterLabs' {@code fence_ipmilan}, both whole processes with their
 * options on stdin, against one {@code ipmi_sim}. Prints medians of STATUS and of OFF (confirmed: fence_remedy_ipmi
 * reads OFF back; fence_ipmilan waits its defaults), the ratio remedy / peer (target: at most 1.0), and remedy's
 * start-up share on its own: {@code action=metadata}, which starts the JVM and the agent's provider and does no
 * device I/O. The first run of a launcher writes its class-data sharing archive and is reported apart.
 */
final class FenceAgentProcessBenchmark {

    private static final int STATUS_RUNS = 15;
    private static final int OFF_RUNS = 5;
    private static final Path DEFAULT_JAR = Path.of("remedy-cli", "target", "remedy.jar");

    private FenceAgentProcessBenchmark() {
    }

    /** Runs the benchmark; {@code args[0]}, if given, is remedy.jar (default remedy-cli/target/remedy.jar). */
    static void main(String[] args) throws IOException, InterruptedException {
        System.out.println("Fence agents as processes: fence_remedy_ipmi vs fence_ipmilan against one ipmi_sim on"
                + " loopback (suite 3), every call a new process with its options on stdin");
        Path jar = (args.length > 0 ? Path.of(args[0]) : DEFAULT_JAR).toAbsolutePath();
        if (!IpmiSimProcess.available() || PeerPrograms.find("fence_ipmilan").isEmpty() || !Files.isRegularFile(jar)) {
            System.out.println("  skipped: needs ipmi_sim (openipmi), fence_ipmilan (fence-agents) and " + jar);
            return;
        }
        Path work = Files.createTempDirectory("remedy-agent-bench");
        Path launcher = install(jar, work);
        try (IpmiSimProcess sim = IpmiSimProcess.start(work.resolve("bmc"))) {
            String options = "ip=" + sim.host() + "\nipport=" + sim.port() + "\nusername=" + sim.user()
                    + "\npassword=" + sim.password() + "\ncipher=3\n";
            PeerCommand remedyMetadata = command(launcher, "action=metadata\n");
            double firstRun = millis(remedyMetadata, () -> { });
            double startup = median(remedyMetadata, STATUS_RUNS, () -> { });
            double remedyStatus = median(command(launcher, "action=status\n" + options), STATUS_RUNS, () -> { });
            double peerStatus = median(command(Path.of("fence_ipmilan"), "action=status\nlanplus=1\n" + options),
                    STATUS_RUNS, () -> { });
            Runnable powerOn = () -> sim.powerTarget().power(PowerState.ON);
            double remedyOff = median(command(launcher, "action=off\n" + options), OFF_RUNS, powerOn);
            double peerOff = median(command(Path.of("fence_ipmilan"), "action=off\nlanplus=1\n" + options),
                    OFF_RUNS, powerOn);
            System.out.printf(Locale.ROOT, "  %-58s %10s%n", "median per call (whole process)", "ms");
            row("fence_remedy_ipmi action=metadata (start-up: JVM, provider, no I/O)", startup);
            row("  its first run, which writes the class-data sharing archive", firstRun);
            row("fence_remedy_ipmi action=status", remedyStatus);
            row("fence_ipmilan action=status", peerStatus);
            row("fence_remedy_ipmi action=off (reads OFF back)", remedyOff);
            row("fence_ipmilan action=off (its default waits)", peerOff);
            verdict("STATUS", remedyStatus, peerStatus);
            verdict("OFF", remedyOff, peerOff);
            System.out.println("  (both sides measured the same way: a new process per call, options on stdin, the"
                    + " same ipmi_sim; remedy's launcher runs " + launcher + ")");
        }
    }

    /** Writes fence_remedy_ipmi into {@code work} with the jar's own install command. */
    private static Path install(Path jar, Path work) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        PeerCommand.Result result = new PeerCommand(List.of(java.toString(), "-jar", jar.toString(), "fence-agents",
                "install", work.toString(), "--type", "ipmi"), Map.of(), "", Duration.ofSeconds(60)).run();
        if (result.exitCode() != 0) {
            throw new IllegalStateException("remedy fence-agents install failed: " + result.output());
        }
        return work.resolve("fence_remedy_ipmi");
    }

    private static PeerCommand command(Path program, String stdin) {
        return new PeerCommand(List.of(program.toString()), Map.of(), stdin, Duration.ofSeconds(60));
    }

    private static double median(PeerCommand command, int runs, Runnable before) throws InterruptedException {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            values.add(millis(command, before));
        }
        return IpmiPeerBenchmark.median(values);
    }

    private static double millis(PeerCommand command, Runnable before) throws InterruptedException {
        before.run();
        PeerCommand.Result result = command.run();
        boolean off = result.exitCode() == 2 && result.output().contains("OFF");
        if (result.exitCode() != 0 && !off) {
            throw new IllegalStateException(command.command().get(0) + " failed (exit " + result.exitCode() + "): "
                    + result.output());
        }
        return result.nanos() / 1e6;
    }

    private static void row(String what, double millis) {
        System.out.printf(Locale.ROOT, "  %-58s %10.1f%n", what, millis);
    }

    private static void verdict(String action, double remedy, double peer) {
        double ratio = remedy / peer;
        System.out.printf(Locale.ROOT, "  %s: fence_remedy_ipmi / fence_ipmilan = %.2f (target <= 1.0: %s)%n", action,
                ratio, ratio <= 1.0 ? "met" : "MISSED");
    }
}
