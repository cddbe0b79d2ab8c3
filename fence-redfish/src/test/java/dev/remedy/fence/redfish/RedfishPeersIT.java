package dev.remedy.fence.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator and the agents against two Redfish clients nobody on the team wrote: ClusterLabs'
 * {@code fence_redfish} (fence-agents) and DMTF's own {@code redfishtool}. Each peer drives the simulator over
 * verified TLS and witnesses what the agent did, and the agent witnesses what the peer did; the simulator is
 * only the meeting point. fence_redfish's choice of the last system is shown next to the agent's refusal.
 */
class RedfishPeersIT {

    private static final String PASSWORD = "peers-it-secret";
    private static final Duration PEER_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    private static Path caFile;
    private static Path redfishtoolConfig;

    private RedfishSimulator simulator;

    @BeforeAll
    static void peers() throws IOException {
        PeerPrograms.require("fence_redfish", "fence-agents");
        PeerPrograms.require("redfishtool", "redfishtool");
        redfishtoolConfig = Files.createFile(dir.resolve("redfishtool.json"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(redfishtoolConfig, "{\"user\": \"admin\", \"password\": \"" + PASSWORD + "\"}");
    }

    @AfterEach
    void stop() {
        if (simulator != null) {
            simulator.close();
        }
    }

    private RedfishSimulator start(RedfishSpec.Builder spec) throws IOException {
        simulator = RedfishSimulator.start(spec.user("admin", PASSWORD).tls(true).build());
        caFile = Files.writeString(dir.resolve("simulator-" + simulator.port() + ".pem"),
                simulator.certificate().pem());
        return simulator;
    }

    private FenceOutcome agent(FenceAgentProvider provider, FenceAction action, String... settings)
            throws InterruptedException {
        AgentConfig.Builder config = provider.configure().set("ip", "127.0.0.1")
                .set("ipport", Integer.toString(simulator.port())).set("username", "admin")
                .secret("password", Secret.of(PASSWORD)).set("ca_file", caFile.toString())
                .set("poll_interval", "20ms");
        for (int i = 0; i < settings.length; i += 2) {
            config.set(settings[i], settings[i + 1]);
        }
        try (FenceAgent agent = provider.create(config.build())) {
            return agent.execute(new FenceRequest(action, "peers-it"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(15)));
        }
    }

    /** fence_redfish with its options on standard input (the password never on its command line), TLS verified. */
    private PeerCommand.Result fenceRedfish(String action, String... options) throws InterruptedException {
        StringBuilder stdin = new StringBuilder("action=" + action + "\nip=127.0.0.1\nipport=" + simulator.port()
                + "\nusername=admin\npassword=" + PASSWORD + "\nssl_secure=1\n");
        for (String option : options) {
            stdin.append(option).append('\n');
        }
        PeerCommand.Result result = new PeerCommand(List.of("fence_redfish"),
                Map.of("REQUESTS_CA_BUNDLE", caFile.toString()), stdin.toString(), PEER_TIMEOUT).run();
        assertThat(result.timedOut()).as("%s", result.output()).isFalse();
        return result;
    }

    /** redfishtool with session login, https always, credentials from a file only the owner can read. */
    private PeerCommand.Result redfishtool(String... args) throws InterruptedException {
        List<String> command = new ArrayList<>(List.of("redfishtool", "-r", "127.0.0.1:" + simulator.port(), "-c",
                redfishtoolConfig.toString(), "-A", "Session", "-S", "Always", "-T", "10"));
        command.addAll(List.of(args));
        PeerCommand.Result result = new PeerCommand(command, Map.of(), "", PEER_TIMEOUT).run();
        assertThat(result.timedOut()).as("%s", result.output()).isFalse();
        assertThat(result.exitCode()).as("redfishtool %s: %s", String.join(" ", args), result.output()).isZero();
        return result;
    }

    @Test
    @DisplayName("fence_redfish reads what the agent did, and the agent reads what fence_redfish did")
    void fenceRedfishWitness() throws Exception {
        start(RedfishSpec.builder().systems("node-1"));
        PeerCommand.Result before = fenceRedfish("status");
        assertThat(before.exitCode()).as(before.output()).isZero();
        assertThat(before.output()).contains("Status: ON");

        FenceOutcome off = agent(new RedfishFenceAgentProvider(), FenceAction.OFF);
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        PeerCommand.Result after = fenceRedfish("status");
        assertThat(after.exitCode()).as("fence_redfish status exits 2 for off: %s", after.output()).isEqualTo(2);
        assertThat(after.output()).contains("Status: OFF");

        PeerCommand.Result on = fenceRedfish("on");
        assertThat(on.exitCode()).as(on.output()).isZero();
        FenceOutcome status = agent(new RedfishFenceAgentProvider(), FenceAction.STATUS);
        assertThat(status.status()).as("%s", status).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(status.power()).isEqualTo(PowerState.ON);
        assertThat(simulator.activeSessions()).as("the agent logs out; fence_redfish uses Basic").isZero();
    }

    @Test
    @DisplayName("two systems, none named: fence_redfish powers off the last one, the agent refuses and lists both")
    void noGuessing() throws Exception {
        start(RedfishSpec.builder().systems("node-1", "node-2"));
        FenceOutcome refused = agent(new RedfishFenceAgentProvider(), FenceAction.OFF);
        assertThat(refused.status()).as("%s", refused).isEqualTo(FenceStatus.REFUSED);
        assertThat(refused.detail()).contains("node-1").contains("node-2");
        assertThat(simulator.systems()).allSatisfy(system ->
                assertThat(system.powerTarget().power()).isEqualTo(PowerState.ON));

        PeerCommand.Result peer = fenceRedfish("off");
        assertThat(peer.exitCode()).as(peer.output()).isZero();
        assertThat(simulator.system("node-2").powerTarget().power())
                .as("fence_redfish took the last system without being told").isEqualTo(PowerState.OFF);
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("DMTF's redfishtool lists the systems, resets one, and reads the agent's ON back")
    void redfishtoolWitness() throws Exception {
        start(RedfishSpec.builder().systems("node-1", "node-2", "node-3"));
        String members = redfishtool("Systems").output();
        assertThat(members).contains("/redfish/v1/Systems/node-1", "/redfish/v1/Systems/node-2",
                "/redfish/v1/Systems/node-3");

        redfishtool("Systems", "-I", "node-2", "reset", "ForceOff");
        assertThat(simulator.system("node-2").powerTarget().power()).isEqualTo(PowerState.OFF);
        FenceOutcome status = agent(new RedfishFenceAgentProvider(), FenceAction.STATUS, "plug", "node-2");
        assertThat(status.power()).as("%s", status).isEqualTo(PowerState.OFF);

        FenceOutcome on = agent(new RedfishFenceAgentProvider(), FenceAction.ON, "plug", "node-2");
        assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(redfishtool("Systems", "-I", "node-2", "get", "-P", "PowerState").output()).contains("\"On\"");
        assertThat(simulator.activeSessions()).as("both clients logged out").isZero();
    }

    @Test
    @DisplayName("redfishtool reads a PDU outlet the redfish-pdu agent switched off")
    void redfishtoolReadsOutlet() throws Exception {
        start(RedfishSpec.builder().systems("node-1").outlets("pdu-1", 4));
        FenceOutcome off = agent(new RedfishPduAgentProvider(), FenceAction.OFF, "pdu", "pdu-1", "plug", "3");
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        String outlet = redfishtool("raw", "GET", simulator.outlet("pdu-1", 3).path()).output();
        assertThat(outlet).contains("\"PowerState\": \"Off\"");
        String other = redfishtool("raw", "GET", simulator.outlet("pdu-1", 2).path()).output();
        assertThat(other).contains("\"PowerState\": \"On\"");
    }
}
