package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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
    private static final AgentServerProcess JAR_SERVER = new AgentServerProcess(JAR);

    @TempDir
    private static Path dir;

    private static IpmiBmcSimulator simulator;
    private static Path launcher;
    /** fence_remedy_ipmi installed with --resident. */
    private static Path resident;
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
        Path residentDir = Files.createDirectory(dir.resolve("resident"));
        Run residentInstall = run(List.of(JAVA_HOME.resolve("bin/java").toString(), "-jar", JAR.toString(),
                "fence-agents", "install", "--resident", "--idle", "5m", "--type", "ipmi", residentDir.toString()), "");
        assertThat(residentInstall.exitCode()).as(residentInstall.toString()).isZero();
        resident = residentDir.resolve("fence_remedy_ipmi");
        JAR_SERVER.stop();
        simulator = IpmiBmcSimulator.start();
    }

    @AfterAll
    static void stop() throws IOException {
        JAR_SERVER.stop();
        if (simulator != null) {
            simulator.close();
        }
    }

    /**
     * A copy of the resident launcher whose java does not exist: it can answer only through the agent server.
     */
    private static Path serverOnly() throws IOException {
        Path copy = dir.resolve("resident/fence_remedy_ipmi_server_only");
        Files.writeString(copy, Files.readString(resident).replaceFirst("(?m)^java=.*$", "java=/nonexistent/java"));
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
        return copy;
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
        return agent(launcher, stdin, args);
    }

    private Run agent(Path program, String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(program.toString()));
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

    @Test
    @DisplayName("--resident: the first call runs in a JVM of its own and starts the agent server; the calls after it"
            + " are answered by the server (a copy of the launcher without java still works), no secret on any"
            + " command line, the server's included")
    void residentServer() throws Exception {
        JAR_SERVER.stop();

        Run first = agent(resident, options("status"));
        long server = JAR_SERVER.await();
        Run status = agent(serverOnly(), options("status"));
        Run off = agent(serverOnly(), options("off"));
        Run statusOff = agent(serverOnly(), options("status"));
        Run metadata = agent(serverOnly(), "", "-o", "metadata");

        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.out()).isEqualTo("Status: ON\n");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.out()).isEqualTo("Status: ON\n");
        assertThat(off.exitCode()).as(off.toString()).isZero();
        assertThat(off.out()).isEqualTo("Success: Powered OFF\n");
        assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(statusOff.exitCode()).as(statusOff.toString()).isEqualTo(2);
        assertThat(metadata.out()).startsWith("<?xml").contains("<resource-agent name=\"fence_remedy_ipmi\">");
        assertThat(proc(server, "cmdline")).contains("fence-agent-server --jar " + JAR).doesNotContain(PASSWORD);
        assertThat(proc(server, "environ")).doesNotContain(PASSWORD);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(JAR_SERVER.file())))
                .isEqualTo("rw-------");
    }

    @Test
    @DisplayName("--resident: a server killed during an OFF gives exit 1, 'outcome is unknown', never a success")
    void residentServerKilledDuringOff() throws Exception {
        JAR_SERVER.stop();
        agent(resident, options("status"));
        long server = JAR_SERVER.await();
        bmc.powerChangeDelay(Duration.ofSeconds(5));
        long before = bmc.requests();

        CompletableFuture<Run> off = CompletableFuture.supplyAsync(() -> {
            try {
                return agent(serverOnly(), options("off"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (bmc.requests() == before && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        ProcessHandle.of(server).orElseThrow().destroyForcibly();
        Run killed = off.get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertThat(killed.exitCode()).as(killed.toString()).isEqualTo(1);
        assertThat(killed.out()).isEmpty();
        assertThat(killed.err()).contains("Failed: remedy's agent server (pid " + server + ") stopped answering")
                .contains("outcome is unknown");
    }

    @Test
    @DisplayName("--resident: a program on the server file's port that does not say the server's id gets nothing,"
            + " and the call runs in a JVM of its own")
    void residentImpostor() throws Exception {
        JAR_SERVER.stop();
        try (ServerSocket impostor = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Files.writeString(JAR_SERVER.file(), impostor.getLocalPort() + " the-real-id token-" + UUID.randomUUID()
                    + " 0\n");
            Files.setPosixFilePermissions(JAR_SERVER.file(), PosixFilePermissions.fromString("rw-------"));
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                try (Socket caller = impostor.accept()) {
                    caller.setSoTimeout(5_000);
                    caller.getOutputStream().write("hello another-id\n".getBytes(StandardCharsets.US_ASCII));
                    return caller.getInputStream().readAllBytes();
                } catch (IOException e) {
                    return ("failed: " + e).getBytes(StandardCharsets.UTF_8);
                }
            });

            Run status = agent(resident, options("status"));

            assertThat(status.exitCode()).as(status.toString()).isZero();
            assertThat(status.out()).isEqualTo("Status: ON\n");
            assertThat(new String(received.get(WAIT_SECONDS, TimeUnit.SECONDS), StandardCharsets.UTF_8))
                    .as("what the impostor received").isEmpty();
        } finally {
            JAR_SERVER.await();
            JAR_SERVER.stop();
        }
    }
}
