package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launchers as Pacemaker runs them: {@code java -jar remedy.jar fence-agents install DIR} writes them, and
 * {@code DIR/fence_remedy_ipmi} runs as a process with its options on stdin, against the IPMI BMC simulator of
 * remedy-simulators on loopback.
 */
@DisplayName("fence_remedy_ipmi, installed by remedy.jar and run as a process")
class FenceRemedyLauncherIT {

    private static final Path JAR = Path.of("target", "remedy.jar").toAbsolutePath();
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final long WAIT_SECONDS = 60;
    private static final String PASSWORD = "it-" + UUID.randomUUID().toString().substring(0, 12);

    @TempDir
    private static Path dir;

    private static IpmiBmcSimulator simulator;
    private static Path launcher;
    private SimulatedBmc bmc;

    private record Run(int exitCode, String out, String err, Set<String> commandLines) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    @BeforeAll
    static void install() throws Exception {
        assertThat(JAR).as("the shaded jar %s is missing: run 'mvn -pl remedy-cli verify'", JAR).isRegularFile();
        Path sbin = Files.createDirectory(dir.resolve("sbin"));
        Run install = run(List.of(JAVA_HOME.resolve("bin/java").toString(), "-jar", JAR.toString(), "fence-agents",
                "install", sbin.toString()), "");
        assertThat(install.exitCode()).as(install.toString()).isZero();
        launcher = sbin.resolve("fence_remedy_ipmi");
        assertThat(install.out()).as(install.toString()).contains("wrote " + launcher)
                .contains("wrote " + sbin.resolve("fence_remedy_redfish"));
        assertThat(Files.readString(launcher)).contains("'" + JAR + "'")
                .contains("'" + JAVA_HOME.resolve("bin/java") + "'");
        simulator = IpmiBmcSimulator.start();
    }

    @AfterAll
    static void stop() {
        if (simulator != null) {
            simulator.close();
        }
    }

    @BeforeEach
    void bmc() {
        bmc = simulator.add(BmcSpec.builder().user("admin", PASSWORD).build());
    }

    private String options(String action) {
        return "# as pacemaker-fenced writes them\naction=" + action + "\nip=" + bmc.host() + "\nipport=" + bmc.port()
                + "\nusername=admin\npassword=" + PASSWORD + "\nnodename=node-1\nport=node-1\n";
    }

    private Run agent(String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        Run run = run(command, stdin);
        assertThat(run.out() + run.err()).as("no secret printed").doesNotContain(PASSWORD);
        assertThat(run.commandLines()).as("no secret on the command line of any process of the agent")
                .noneMatch(line -> line.contains(PASSWORD));
        return run;
    }

    /**
     * Runs {@code command} with {@code stdin}, reading {@code /proc/<pid>/cmdline} and {@code environ} of the process
     * and its descendants while it runs.
     */
    private static Run run(List<String> command, String stdin) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().keySet().removeAll(Set.of("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"));
        builder.environment().put("JAVA_HOME", JAVA_HOME.toString());
        Process process = builder.start();
        try (var in = process.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        Set<String> commandLines = new TreeSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!process.waitFor(20, TimeUnit.MILLISECONDS)) {
            Stream.concat(Stream.of(process.toHandle()), process.descendants()).forEach(p -> {
                commandLines.add(proc(p.pid(), "cmdline"));
                commandLines.add(proc(p.pid(), "environ"));
            });
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(command + " did not end within " + WAIT_SECONDS + " s; stderr:\n"
                        + Files.readString(err));
            }
        }
        commandLines.remove("");
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err), commandLines);
    }

    /** {@code /proc/PID/FILE} with its NUL separators as spaces; empty once the process is gone. */
    private static String proc(long pid, String file) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), file)), StandardCharsets.UTF_8)
                    .replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    @DisplayName("status, off, status, on with the options on stdin: 0 'Status: ON', 0 confirmed OFF, 2, 0")
    void powerCycle() throws Exception {
        Run status = agent(options("status"));
        Run off = agent(options("off"));
        PowerState afterOff = bmc.powerTarget().power();
        Run statusOff = agent(options("status"));
        Run on = agent(options("on"));

        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.out()).isEqualTo("Status: ON\n");
        assertThat(off.exitCode()).as(off.toString()).isZero();
        assertThat(off.out()).isEqualTo("Success: Powered OFF\n");
        assertThat(afterOff).isEqualTo(PowerState.OFF);
        assertThat(statusOff.exitCode()).as(statusOff.toString()).isEqualTo(2);
        assertThat(statusOff.out()).isEqualTo("Status: OFF\n");
        assertThat(on.exitCode()).as(on.toString()).isZero();
        assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("the launcher's class-data sharing archive is written by a run that acts on the device, not by"
            + " metadata (Pacemaker's first call), and the runs after it use it")
    void archiveFromADeviceAction() throws Exception {
        Path archive = Path.of(JAR + ".fence_remedy_ipmi.jsa");
        Files.deleteIfExists(archive);

        Run metadata = agent("action=metadata\n");
        assertThat(metadata.exitCode()).as(metadata.toString()).isZero();
        assertThat(archive).as("no archive from metadata").doesNotExist();
        Run status = agent(options("status"));
        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(archive).as("written by status").isRegularFile();
        Run again = agent(options("status"));

        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.out()).isEqualTo("Status: ON\n");
        assertThat(again.err()).as("no CDS message").doesNotContain("cds");
        try (var files = Files.list(archive.getParent())) {
            assertThat(files.map(Path::toString)).as("no temporary archive left").noneMatch(f -> f.contains(".jsa."));
        }
    }

    @Test
    @DisplayName("reboot is OFF, confirmed, then ON: the machine's history shows both")
    void reboot() throws Exception {
        bmc.powerTarget().clearHistory();

        Run reboot = agent(options("reboot"));

        assertThat(reboot.exitCode()).as(reboot.toString()).isZero();
        assertThat(reboot.out()).isEqualTo("Success: Rebooted\n");
        assertThat(bmc.powerTarget().history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("while a slow OFF runs, no process of the agent has the password in its command line or environment")
    void noSecretOnAnyCommandLine() throws Exception {
        bmc.powerChangeDelay(Duration.ofSeconds(2));

        Run off = agent(options("off"));

        assertThat(off.exitCode()).as(off.toString()).isZero();
        assertThat(off.commandLines()).as("the java process was seen while it ran")
                .anyMatch(line -> line.contains("fence-agent-protocol --type ipmi"));
    }

    @Test
    @DisplayName("a BMC that never answers: off fails with 1 at the deadline, never 0")
    void silentBmc() throws Exception {
        bmc.responsive(false);

        Run off = agent(options("off") + "action_timeout=5\n");

        assertThat(off.exitCode()).as(off.toString()).isEqualTo(1);
        assertThat(off.out()).isEmpty();
        assertThat(off.err()).contains("Failed: OFF");
        assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("port_as_ip: the port Pacemaker sends (as pcmk_host_map maps the node) is the BMC's address")
    void portAsIp() throws Exception {
        Run status = agent("action=status\nport_as_ip=1\nnodename=node-1\nport=" + bmc.host() + "\nipport="
                + bmc.port() + "\nusername=admin\npassword=" + PASSWORD + "\n");

        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.out()).isEqualTo("Status: ON\n");
    }

    @Test
    @DisplayName("validate-all: 0 for a valid configuration; 1 naming the missing ip, without touching the BMC")
    void validateAll() throws Exception {
        Run valid = agent(options("validate-all"));
        Run invalid = agent("action=validate-all\nusername=admin\npassword=" + PASSWORD + "\n");

        assertThat(valid.exitCode()).as(valid.toString()).isZero();
        assertThat(invalid.exitCode()).as(invalid.toString()).isEqualTo(1);
        assertThat(invalid.err()).contains("parameter 'ip'").contains("validate-all failed");
        assertThat(bmc.requests()).isZero();
    }

    @Test
    @DisplayName("-o metadata on the command line prints the resource-agent document with the ipmi parameters")
    void metadata() throws Exception {
        Run metadata = agent("", "-o", "metadata");

        assertThat(metadata.exitCode()).as(metadata.toString()).isZero();
        assertThat(metadata.out()).startsWith("<?xml").contains("<resource-agent name=\"fence_remedy_ipmi\">")
                .contains("<parameter name=\"ip\" unique=\"0\" required=\"1\">")
                .contains("<action name=\"reboot\" timeout=\"60s\" />");
    }

    @Test
    @DisplayName("the command line works too (--key=value, --key value, -l, -o); stdin is then not read")
    void commandLine() throws Exception {
        Run validate = agent("password=" + PASSWORD + "\n", "-o", "validate-all", "--ip=" + bmc.host(), "--ipport",
                Integer.toString(bmc.port()), "-l", "admin", "--power-wait=1");

        assertThat(validate.exitCode()).as(validate.toString()).isEqualTo(1);
        assertThat(validate.err()).as("only the password is missing: it is not on the command line, and stdin is "
                + "not read when there are arguments, as fencing.py does").contains("password")
                .doesNotContain("'ip'").doesNotContain("'username'");
    }
}
