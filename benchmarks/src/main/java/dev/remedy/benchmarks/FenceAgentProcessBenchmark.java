package dev.remedy.benchmarks;

import static dev.remedy.benchmarks.AgentLaunchers.command;
import static dev.remedy.benchmarks.AgentLaunchers.delete;
import static dev.remedy.benchmarks.AgentLaunchers.install;
import static dev.remedy.benchmarks.AgentLaunchers.median;
import static dev.remedy.benchmarks.AgentLaunchers.millis;
import static dev.remedy.benchmarks.AgentLaunchers.startServer;
import static dev.remedy.benchmarks.AgentLaunchers.stopServer;
import static dev.remedy.benchmarks.AgentLaunchers.verdict;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.ipmi.IpmiSimProcess;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.simulators.redfish.SimulatedSystem;
import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * remedy as Pacemaker runs it, a process per operation: {@code fence_remedy_ipmi} (written by
 * {@code remedy.jar fence-agents install}) next to ClusterLabs' {@code fence_ipmilan}, both whole processes with their
 * options on stdin, against one {@code ipmi_sim}; then {@code fence_remedy_redfish} next to {@code fence_redfish}
 * against the Redfish simulator over TLS. Prints medians of STATUS and of OFF (confirmed: fence_remedy_ipmi
 * reads OFF back; fence_ipmilan waits its defaults), the ratio remedy / peer (target: at most 1.0), and remedy's
 * start-up share on its own: {@code action=metadata}, which starts the JVM and the agent's provider and does no
 * device I/O. The first device action of a launcher writes its class-data sharing archive and is reported apart.
 * Each remedy launcher is measured twice: one-shot (a JVM per call, the default) and resident
 * ({@code install --resident}: the calls go over loopback to the jar's agent server, which the first call starts;
 * each call is still a whole process, a bash script, as Pacemaker runs it).
 */
final class FenceAgentProcessBenchmark {

    private static final int STATUS_RUNS = 15;
    private static final int OFF_RUNS = 5;
    private static final String PASSWORD = "process-benchmark-password";

    private FenceAgentProcessBenchmark() {
    }

    /** Runs the benchmark; {@code args[0]}, if given, is remedy.jar (default remedy-cli/target/remedy.jar). */
    static void main(String[] args) throws IOException, InterruptedException {
        System.out.println("Fence agents as processes: fence_remedy_ipmi vs fence_ipmilan against one ipmi_sim on"
                + " loopback (suite 3), every call a new process with its options on stdin");
        Path jar = AgentLaunchers.jar(args);
        if (!IpmiSimProcess.available() || PeerPrograms.find("fence_ipmilan").isEmpty() || !Files.isRegularFile(jar)) {
            System.out.println("  skipped: needs ipmi_sim (openipmi), fence_ipmilan (fence-agents) and " + jar);
            return;
        }
        Path work = Files.createTempDirectory("remedy-agent-bench");
        Path launcher = install(jar, work, false).resolve("fence_remedy_ipmi");
        Path resident = install(jar, Files.createDirectory(work.resolve("resident")), true)
                .resolve("fence_remedy_ipmi");
        try {
            try (IpmiSimProcess sim = IpmiSimProcess.start(work.resolve("bmc"))) {
                String options = "ip=" + sim.host() + "\nipport=" + sim.port() + "\nusername=" + sim.user()
                        + "\npassword=" + sim.password() + "\ncipher=3\n";
                PeerCommand remedyStatusCommand = command(launcher, "action=status\n" + options);
                double firstRun = millis(remedyStatusCommand, () -> { });
                double startup = median(command(launcher, "action=metadata\n"), STATUS_RUNS, () -> { });
                double remedyStatus = median(remedyStatusCommand, STATUS_RUNS, () -> { });
                double peerStatus = median(command(Path.of("fence_ipmilan"), "action=status\nlanplus=1\n" + options),
                        STATUS_RUNS, () -> { });
                Runnable powerOn = () -> sim.powerTarget().power(PowerState.ON);
                double remedyOff = median(command(launcher, "action=off\n" + options), OFF_RUNS, powerOn);
                double peerOff = median(command(Path.of("fence_ipmilan"), "action=off\nlanplus=1\n" + options),
                        OFF_RUNS, powerOn);
                PeerCommand residentStatusCommand = command(resident, "action=status\n" + options);
                double serverStart = startServer(residentStatusCommand, jar);
                double residentStatus = median(residentStatusCommand, STATUS_RUNS, () -> { });
                double residentOff = median(command(resident, "action=off\n" + options), OFF_RUNS, powerOn);
                System.out.printf(Locale.ROOT, "  %-58s %10s%n", "median per call (whole process)", "ms");
                row("fence_remedy_ipmi action=metadata (start-up: JVM, provider, no I/O)", startup);
                row("fence_remedy_ipmi's first status, which writes its CDS archive", firstRun);
                row("fence_remedy_ipmi action=status (one-shot)", remedyStatus);
                row("fence_remedy_ipmi action=status (resident)", residentStatus);
                row("fence_ipmilan action=status", peerStatus);
                row("fence_remedy_ipmi action=off, reads OFF back (one-shot)", remedyOff);
                row("fence_remedy_ipmi action=off, reads OFF back (resident)", residentOff);
                row("fence_ipmilan action=off (its default waits)", peerOff);
                row("resident: first call, one-shot, until its server answers", serverStart);
                verdict("fence_remedy_ipmi one-shot / fence_ipmilan", "STATUS", remedyStatus, peerStatus);
                verdict("fence_remedy_ipmi resident / fence_ipmilan", "STATUS", residentStatus, peerStatus);
                verdict("fence_remedy_ipmi one-shot / fence_ipmilan", "OFF", remedyOff, peerOff);
                verdict("fence_remedy_ipmi resident / fence_ipmilan", "OFF", residentOff, peerOff);
                System.out.println("  (both sides measured the same way: a new process per call, options on stdin, the"
                        + " same ipmi_sim; remedy's launchers run " + launcher + " and " + resident + ")");
            }
            redfish(work, jar);
        } finally {
            stopServer(jar);
            delete(work);
        }
    }

    /**
     * fence_remedy_redfish next to fence_redfish, both processes with their options on stdin, against the Redfish
     * simulator over TLS that both verify with its certificate.
     */
    private static void redfish(Path work, Path jar) throws IOException, InterruptedException {
        System.out.println("Fence agents as processes: fence_remedy_redfish vs fence_redfish against the Redfish"
                + " simulator (one system, TLS verified by both), every call a new process with its options on stdin");
        if (PeerPrograms.find("fence_redfish").isEmpty()) {
            System.out.println("  skipped: needs fence_redfish (fence-agents)");
            return;
        }
        Path launcher = work.resolve("fence_remedy_redfish");
        try (RedfishSimulator simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD)
                .systems("node-1").tls(true).build())) {
            Path caFile = Files.writeString(work.resolve("redfish.pem"), simulator.certificate().pem());
            SimulatedSystem node = simulator.system("node-1");
            String common = "ip=127.0.0.1\nipport=" + simulator.port() + "\nusername=admin\npassword=" + PASSWORD
                    + "\n";
            String remedy = common + "ssl=true\nca_file=" + caFile + "\nplug=node-1\n";
            String peer = common + "ssl_secure=1\nsystems_uri=" + node.path() + "\n";
            Map<String, String> peerEnvironment = Map.of("REQUESTS_CA_BUNDLE", caFile.toString());
            Runnable powerOn = () -> node.powerTarget().power(PowerState.ON);
            double remedyStatus = median(command(launcher, "action=status\n" + remedy), STATUS_RUNS, powerOn);
            double peerStatus = median(new PeerCommand(List.of("fence_redfish"), peerEnvironment,
                    "action=status\n" + peer, Duration.ofSeconds(60)), STATUS_RUNS, powerOn);
            double remedyOff = median(command(launcher, "action=off\n" + remedy), OFF_RUNS, powerOn);
            double peerOff = median(new PeerCommand(List.of("fence_redfish"), peerEnvironment, "action=off\n" + peer,
                    Duration.ofSeconds(60)), OFF_RUNS, powerOn);
            Path resident = work.resolve("resident").resolve("fence_remedy_redfish");
            startServer(command(resident, "action=status\n" + remedy), jar);
            double residentStatus = median(command(resident, "action=status\n" + remedy), STATUS_RUNS, powerOn);
            double residentOff = median(command(resident, "action=off\n" + remedy), OFF_RUNS, powerOn);
            System.out.printf(Locale.ROOT, "  %-58s %10s%n", "median per call (whole process)", "ms");
            row("fence_remedy_redfish action=status (one-shot)", remedyStatus);
            row("fence_remedy_redfish action=status (resident)", residentStatus);
            row("fence_redfish action=status", peerStatus);
            row("fence_remedy_redfish action=off, reads Off back (one-shot)", remedyOff);
            row("fence_remedy_redfish action=off, reads Off back (resident)", residentOff);
            row("fence_redfish action=off", peerOff);
            verdict("fence_remedy_redfish one-shot / fence_redfish", "STATUS", remedyStatus, peerStatus);
            verdict("fence_remedy_redfish resident / fence_redfish", "STATUS", residentStatus, peerStatus);
            verdict("fence_remedy_redfish one-shot / fence_redfish", "OFF", remedyOff, peerOff);
            verdict("fence_remedy_redfish resident / fence_redfish", "OFF", residentOff, peerOff);
        }
    }

    private static void row(String what, double millis) {
        System.out.printf(Locale.ROOT, "  %-58s %10.1f%n", what, millis);
    }

}
