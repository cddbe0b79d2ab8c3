package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.ipmi.IpmiSimProcess;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the shaded {@code target/remedy.jar} as a real process, as a user would: proves the jar starts, that the
 * merged {@code META-INF/services} let ServiceLoader find the {@code fake} agent, and that the README's command
 * works end to end with a secret from the environment.
 */
@DisplayName("the shaded remedy.jar run with java -jar")
class RemedyJarIT {

    private static final Path JAR = Path.of("target", "remedy.jar").toAbsolutePath();
    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    private static final long WAIT_SECONDS = 60;

    @TempDir
    private Path dir;

    @BeforeAll
    static void jarIsBuilt() {
        assertThat(JAR).as("the shaded jar %s is missing: run 'mvn -pl remedy-cli verify' (the package phase "
                + "builds it before failsafe runs this test, in the module directory)", JAR).isRegularFile();
    }

    private record Run(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private Run remedy(Map<String, String> variables, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(JAVA.toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Path out = dir.resolve("stdout-" + System.nanoTime());
        Path err = dir.resolve("stderr-" + System.nanoTime());
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("_JAVA_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().putAll(variables);
        Process process = builder.start();
        try {
            if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("'remedy " + String.join(" ", args) + "' did not end within "
                        + WAIT_SECONDS + " s; stdout so far:\n" + Files.readString(out, StandardCharsets.UTF_8)
                        + "\nstderr so far:\n" + Files.readString(err, StandardCharsets.UTF_8));
            }
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    @Test
    @DisplayName("'remedy agents' finds the fake agent through the merged service files and exits 0")
    void agents() throws Exception {
        Run run = remedy(Map.of(), "agents");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).as(run.toString()).contains("fake - simulated power switch")
                .contains("plug").contains("password");
        assertThat(run.err()).as("no discovery problem").doesNotContain("discovery problems");
    }

    @Test
    @DisplayName("'remedy agents' lists every agent type that the jars on the class path register, not only one jar's")
    void agentsOfEveryJar() throws Exception {
        Set<String> registered = FenceAgentRegistry.load().types();

        Run run = remedy(Map.of(), "agents");

        assertThat(registered).as("agents registered by the dependency jars").contains("fake");
        assertThat(run.out().lines().filter(l -> !l.startsWith(" ")).map(l -> l.substring(0, l.indexOf(" - "))))
                .as(run.toString()).containsExactlyInAnyOrderElementsOf(registered);
    }

    @Test
    @DisplayName("'remedy fence fake status' with the password from the environment prints 'Status: ON' and exits 0")
    void fenceStatus() throws Exception {
        String password = "it-password-" + System.nanoTime();

        Run run = remedy(Map.of("REMEDY_IT_PASSWORD", password),
                "fence", "fake", "status", "-p", "plug=x", "--secret-env", "password=REMEDY_IT_PASSWORD");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).as(run.toString()).startsWith("Status: ON")
                .contains("STATUS succeeded: power ON").contains("fake target 'x'");
        assertThat(run.err()).contains("remedy: fake status [").contains("connecting to fake target 'x'");
        assertThat(run.out() + run.err()).doesNotContain(password);
    }

    @Test
    @DisplayName("'remedy fence ipmi off' powers OpenIPMI's ipmi_sim off, confirmed; then status exits 2 (off)")
    void fenceIpmiSim() throws Exception {
        PeerPrograms.require("ipmi_sim", "openipmi");
        try (IpmiSimProcess sim = IpmiSimProcess.start(dir.resolve("ipmi-sim"))) {
            Map<String, String> secret = Map.of("REMEDY_IT_IPMI", sim.password());
            String[] target = {"-p", "ip=" + sim.host(), "-p", "ipport=" + sim.port(), "-p", "username=" + sim.user(),
                "--secret-env", "password=REMEDY_IT_IPMI"};

            Run off = remedy(secret, concat(new String[] {"fence", "ipmi", "off"}, target));
            Run status = remedy(secret, concat(new String[] {"fence", "ipmi", "status"}, target));

            assertThat(off.exitCode()).as(off.toString()).isEqualTo(ExitCodes.OK);
            assertThat(off.out()).as(off.toString()).contains("OFF succeeded: power OFF").contains("(confirmed)");
            assertThat(sim.powerTarget().power()).isEqualTo(PowerState.OFF);
            assertThat(status.exitCode()).as(status.toString()).isEqualTo(ExitCodes.STATUS_OFF);
            assertThat(off.out() + off.err() + status.out() + status.err()).doesNotContain(sim.password());
        }
    }

    private static String[] concat(String[] first, String[] second) {
        String[] all = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    @Test
    @DisplayName("bad input from the real process is one line on stderr and exit 3")
    void badInput() throws Exception {
        Run run = remedy(Map.of(), "fence", "nope", "status", "-p", "plug=x");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.err().lines()).as(run.toString()).singleElement().asString()
                .startsWith("remedy: unknown agent type 'nope'").contains("fake");
        assertThat(run.out()).isEmpty();
    }
}
