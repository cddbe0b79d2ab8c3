package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.ipmi.IpmiSimProcess;
import dev.remedy.simulators.openssh.OpenSshOptions;
import dev.remedy.simulators.openssh.OpenSshServerProcess;
import dev.remedy.simulators.pacemaker.AgentRun;
import dev.remedy.simulators.pacemaker.FenceDevice;
import dev.remedy.simulators.pacemaker.FenceEvent;
import dev.remedy.simulators.pacemaker.FenceEvent.Status;
import dev.remedy.simulators.pacemaker.FenceResult;
import dev.remedy.simulators.pacemaker.PacemakerFencer;
import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pacemaker's own fencer runs an IPMI agent against OpenIPMI's ipmi_sim, and fence_apc against Debian's OpenSSH
 * server with the APC CLI as the PDU of a second level. The agent is a parameter: {@link #ipmiAgents()} lists every
 * IPMI agent the fencer is tested with, ClusterLabs' fence_ipmilan and remedy's fence_remedy_ipmi, which
 * {@code remedy.jar fence-agents install} writes into {@link PacemakerFencer#AGENT_DIRECTORY} (the only place the
 * fencer runs agents from) for these tests, and removes after them unless it was there before.
 */
@DisplayName("Pacemaker's fencer (pacemaker-fenced, stonith_admin) fences through real agents and devices")
class PacemakerFencerIT {

    private static final Duration FENCE_TIMEOUT = Duration.ofSeconds(30);
    /** Long enough for a working agent, far shorter than fence_ipmilan's own 20 s of retries at a silent BMC. */
    private static final Duration SILENT_TIMEOUT = Duration.ofSeconds(5);
    private static final String LEVEL_ONE_TIMEOUT = "4";
    private static final int OUTLET = 3;
    private static final String REMEDY_IPMI = "fence_remedy_ipmi";
    /**
     * fence_remedy_ipmi as {@code fence-agents install --resident} writes it, under a name of its own in
     * {@code /usr/sbin}: its calls go to the jar's agent server, which its first device action starts.
     */
    private static final String REMEDY_IPMI_RESIDENT = "fence_remedy_ipmi_resident";
    private static final Path JAR = Path.of("target", "remedy.jar").toAbsolutePath();

    /** Whether this test wrote the launcher (and so removes it). */
    private static boolean installedHere;

    @TempDir
    static Path shared;

    private static PacemakerFencer fencer;

    @TempDir
    Path dir;

    @TempDir
    Path pduDir;

    /**
     * An IPMI fence agent as the fencer runs it: its executable name (in {@code /usr/sbin}), the options it needs
     * besides address, port, user and password (its secret {@code password}), and whether no process it starts
     * ever shows the password in its command line.
     */
    record IpmiAgent(String name, Map<String, String> options, boolean passwordNeverInArgv) {

        FenceDevice device(String id, String host, int port, String user, String password) {
            return FenceDevice.of(id, name).withOptions(options)
                    .withOptions(Map.of("ip", host, "ipport", String.valueOf(port), "username", user))
                    .withSecret("password", password);
        }

        /** A node or device name for this agent: {@code prefix-fence-ipmilan}. */
        String named(String prefix) {
            return prefix + "-" + name.replace('_', '-');
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * The IPMI agents under test. ClusterLabs' fence_ipmilan needs cipher suite 3 named (ipmi_sim does not answer
     * Get Channel Cipher Suites); it runs ipmitool with {@code -P <password>}, which ipmitool masks only once it
     * runs, so a sample of its command line can catch the password.
     */
    static Stream<IpmiAgent> ipmiAgents() {
        return Stream.of(new IpmiAgent("fence_ipmilan", Map.of("lanplus", "1", "cipher", "3"), false),
                new IpmiAgent(REMEDY_IPMI, Map.of("cipher", "3"), true),
                new IpmiAgent(REMEDY_IPMI_RESIDENT, Map.of("cipher", "3"), true));
    }

    @BeforeAll
    static void startFencer() throws IOException, InterruptedException {
        PacemakerFencer.require();
        PeerPrograms.require("ipmi_sim", "openipmi");
        PeerPrograms.require("fence_ipmilan", "fence-agents");
        PeerPrograms.require("fence_apc", "fence-agents");
        installRemedyLauncher();
        fencer = PacemakerFencer.start(shared.resolve("fencer"));
    }

    /**
     * Writes fence_remedy_ipmi where the fencer looks, as an admin would: {@code remedy fence-agents install}; and
     * its resident variant, installed into a directory of its own and copied there under its own name.
     */
    private static void installRemedyLauncher() throws IOException, InterruptedException {
        assertThat(JAR).as("the shaded jar %s is missing: run 'mvn -pl remedy-cli verify'", JAR).isRegularFile();
        Path launcher = PacemakerFencer.AGENT_DIRECTORY.resolve(REMEDY_IPMI);
        Path resident = PacemakerFencer.AGENT_DIRECTORY.resolve(REMEDY_IPMI_RESIDENT);
        installedHere = !Files.exists(launcher) && !Files.exists(resident);
        install(PacemakerFencer.AGENT_DIRECTORY);
        Path residentDir = Files.createDirectories(shared.resolve("resident"));
        install(residentDir, "--resident");
        Files.copy(residentDir.resolve(REMEDY_IPMI), resident, StandardCopyOption.REPLACE_EXISTING);
        assertThat(launcher).isExecutable();
        assertThat(resident).isExecutable();
    }

    private static void install(Path directory, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", JAR.toString(), "fence-agents", "install", directory.toString(), "--type",
                "ipmi"));
        command.addAll(List.of(options));
        Process install = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(install.waitFor(60, TimeUnit.SECONDS)).as("install finished").isTrue();
        assertThat(install.exitValue()).as(output).isZero();
    }

    @AfterAll
    static void stopFencer() throws IOException {
        new AgentServerProcess(JAR).stop();
        if (installedHere) {
            Files.deleteIfExists(PacemakerFencer.AGENT_DIRECTORY.resolve(REMEDY_IPMI));
            Files.deleteIfExists(PacemakerFencer.AGENT_DIRECTORY.resolve(REMEDY_IPMI_RESIDENT));
        }
        if (fencer == null) {
            return;
        }
        long pid = fencer.pid();
        fencer.close();
        assertThat(fencer.alive()).isFalse();
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("pacemaker-fenced after close").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ipmiAgents")
    @DisplayName("fences a node through ipmi_sim: stonith_admin and the history say success, and the BMC reads off")
    void fencesThroughTheBmc(IpmiAgent agent) {
        String target = agent.named("node-ok");
        String device = agent.named("ipmi-ok");
        try (IpmiSimProcess bmc = IpmiSimProcess.start(dir.resolve("bmc"))) {
            fencer.register(agent.device(device, bmc.host(), bmc.port(), bmc.user(), bmc.password())
                    .withOption("pcmk_host_list", target));

            FenceResult result = fencer.fence(target, FENCE_TIMEOUT);

            assertThat(result.succeeded()).as(result.output() + "\n" + fencer.log()).isTrue();
            assertThat(fencer.history(target)).singleElement().satisfies(event -> {
                assertThat(event.status()).isEqualTo(Status.SUCCESS);
                assertThat(event.action()).isEqualTo("off");
                assertThat(event.target()).isEqualTo(target);
                assertThat(event.delegate()).isEqualTo(PacemakerFencer.NODE_NAME);
            });
            assertThat(bmc.powerTarget().power()).as("ipmi_sim's power state file").isEqualTo(PowerState.OFF);
            assertThat(bmc.chassisCalls()).contains("set power 0");
            assertThat(runsFor(target)).extracting(AgentRun::device, AgentRun::exitCode)
                    .containsExactly(tuple(device, 0));
            assertThat(result.commandLines()).as("the fencer's children").anyMatch(line -> line.contains(agent.name()));
            if (agent.passwordNeverInArgv()) {
                assertThat(result.commandLines()).noneMatch(line -> line.contains(bmc.password()));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ipmiAgents")
    @DisplayName("a BMC that never answers is a failed operation in the history, never a success")
    void silentBmcFails(IpmiAgent agent) throws IOException {
        String target = agent.named("node-silent");
        try (DatagramSocket silent = silentBmc()) {
            fencer.register(agent.device(agent.named("ipmi-silent"), "127.0.0.1", silent.getLocalPort(),
                    IpmiSimProcess.DEFAULT_USER, IpmiSimProcess.DEFAULT_PASSWORD).withOption("pcmk_host_list", target));

            FenceResult result = fencer.fence(target, SILENT_TIMEOUT);

            assertThat(result.succeeded()).as(result.output()).isFalse();
            assertThat(fencer.history(target)).extracting(FenceEvent::status).containsExactly(Status.FAILED);
            assertThat(runsFor(target)).singleElement().satisfies(run -> assertThat(run.succeeded()).isFalse());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ipmiAgents")
    @DisplayName("a BMC that is gone (ipmi_sim stopped, its port closed) is a failed operation, never a success")
    void stoppedBmcFails(IpmiAgent agent) {
        String target = agent.named("node-gone");
        IpmiSimProcess bmc = IpmiSimProcess.start(dir.resolve("bmc"));
        bmc.close();
        fencer.register(agent.device(agent.named("ipmi-gone"), bmc.host(), bmc.port(), bmc.user(), bmc.password())
                .withOption("pcmk_host_list", target));

        FenceResult result = fencer.fence(target, SILENT_TIMEOUT);

        assertThat(result.succeeded()).as(result.output()).isFalse();
        assertThat(fencer.history(target)).extracting(FenceEvent::status).containsExactly(Status.FAILED);
        assertThat(bmc.chassisCalls()).doesNotContain("set power 0");
    }

    @Test
    @DisplayName("a second fencer is refused while one runs: the IPC names are one per machine")
    void oneFencerPerMachine() {
        assertThatThrownBy(() -> PacemakerFencer.start(dir.resolve("second")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already runs on this machine")
                .hasMessageContaining("stonith-ng");
        assertThat(fencer.alive()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ipmiAgents")
    @DisplayName("two levels, the BMC first and a PDU second: with the BMC silent the PDU's outlet fences the node")
    void pduFencesWhenTheBmcIsSilent(IpmiAgent agent) throws IOException {
        String target = agent.named("node-fallback");
        String ipmi = agent.named("ipmi-fallback");
        String pdu = agent.named("pdu-fallback");
        try (DatagramSocket silent = silentBmc();
                OpenSshServerProcess pduServer = OpenSshServerProcess.start(pduDir, OpenSshOptions.defaults())) {
            fencer.register(agent.device(ipmi, "127.0.0.1", silent.getLocalPort(), IpmiSimProcess.DEFAULT_USER,
                    IpmiSimProcess.DEFAULT_PASSWORD).withOption("pcmk_host_list", target)
                    .withOption("pcmk_off_timeout", LEVEL_ONE_TIMEOUT));
            fencer.register(apc(pdu, pduServer, target));
            fencer.registerLevel(target, 1, List.of(ipmi));
            fencer.registerLevel(target, 2, List.of(pdu));

            FenceResult result = fencer.fence(target, FENCE_TIMEOUT);

            assertThat(result.succeeded()).as(result.output() + "\n" + fencer.log()).isTrue();
            assertThat(fencer.history(target)).extracting(FenceEvent::status).containsExactly(Status.SUCCESS);
            assertThat(pduServer.outletState(OUTLET)).as("outlet " + OUTLET).isFalse();
            assertThat(pduServer.outletState(OUTLET - 1)).as("outlet " + (OUTLET - 1)).isTrue();
            assertThat(runsFor(target)).extracting(AgentRun::device, AgentRun::succeeded)
                    .containsExactly(tuple(ipmi, false), tuple(pdu, true));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ipmiAgents")
    @DisplayName("two levels, the BMC first and a PDU second: a working BMC fences and the PDU is not touched")
    void bmcFencesFirst(IpmiAgent agent) throws IOException {
        String target = agent.named("node-first");
        String ipmi = agent.named("ipmi-first");
        String pdu = agent.named("pdu-first");
        try (IpmiSimProcess bmc = IpmiSimProcess.start(dir.resolve("bmc"));
                OpenSshServerProcess pduServer = OpenSshServerProcess.start(pduDir, OpenSshOptions.defaults())) {
            fencer.register(agent.device(ipmi, bmc.host(), bmc.port(), bmc.user(), bmc.password())
                    .withOption("pcmk_host_list", target));
            fencer.register(apc(pdu, pduServer, target));
            fencer.registerLevel(target, 1, List.of(ipmi));
            fencer.registerLevel(target, 2, List.of(pdu));

            FenceResult result = fencer.fence(target, FENCE_TIMEOUT);

            assertThat(result.succeeded()).as(result.output() + "\n" + fencer.log()).isTrue();
            assertThat(fencer.history(target)).extracting(FenceEvent::status).containsExactly(Status.SUCCESS);
            assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.OFF);
            assertThat(pduServer.outletState(OUTLET)).as("outlet " + OUTLET).isTrue();
            assertThat(runsFor(target)).extracting(AgentRun::device, AgentRun::exitCode)
                    .containsExactly(tuple(ipmi, 0));
        }
    }

    /**
     * fence_apc over SSH with a password, outlet {@value #OUTLET} for the node; the server's host key pinned in a
     * known_hosts file (fence_apc's default ssh options, {@code -1 -c blowfish}, are for SSH 1 and must go).
     */
    private FenceDevice apc(String id, OpenSshServerProcess server, String target) throws IOException {
        server.requirePasswordLogin();
        Path knownHosts = Files.writeString(dir.resolve(id + ".known_hosts"), server.knownHostsLine() + "\n");
        return FenceDevice.of(id, "fence_apc")
                .withOptions(Map.of("ip", server.host(), "ipport", String.valueOf(server.port()),
                        "username", server.user(), "ssh", "1",
                        "ssh_options", "-o UserKnownHostsFile=" + knownHosts + " -o StrictHostKeyChecking=yes",
                        "pcmk_host_map", target + ":" + OUTLET))
                .withSecret("password", server.password());
    }

    /** A UDP port on 127.0.0.1 that takes every datagram and never answers: a BMC that hangs. */
    private static DatagramSocket silentBmc() throws IOException {
        return new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    private static List<AgentRun> runsFor(String target) {
        return fencer.agentRuns().stream().filter(run -> run.target().equals(target)).toList();
    }
}
