package dev.remedy.fence.ssh;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.testkit.PowerTarget;
import dev.remedy.testkit.conformance.FenceAgentConformanceKit;
import dev.remedy.testkit.ssh.SshDeviceSimulator;
import dev.remedy.testkit.ssh.SshDeviceSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The ssh agent with the apc profile keeps the fence-agent contract against an outlet of the simulated PDU. */
class SshAgentConformanceTest extends FenceAgentConformanceKit {

    private static SshDeviceSimulator pdu;
    private static int closedPort;

    @BeforeAll
    static void start() throws IOException {
        pdu = SshDeviceSimulator.start(SshDeviceSpec.builder().user("apc", "conformance-apc").confirmations(true)
                .build());
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
    }

    @AfterAll
    static void stop() {
        pdu.close();
    }

    @Override
    protected FenceAgentProvider provider() {
        return new SshFenceAgentProvider();
    }

    private AgentConfig config(int port, String password) {
        return provider().configure().set("ip", pdu.host()).set("ipport", Integer.toString(port))
                .set("username", "apc").secret("password", Secret.of(password)).set("profile", "apc")
                .set("plug", "3").set("host_key_fingerprint", pdu.hostKeyFingerprint()).set("poll_interval", "50ms")
                .build();
    }

    @Override
    protected AgentConfig reachableConfig() {
        return config(pdu.port(), "conformance-apc");
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return config(closedPort, "conformance-apc");
    }

    @Override
    protected Optional<AgentConfig> wrongCredentialsConfig() {
        return Optional.of(config(pdu.port(), "not-the-password"));
    }

    @Override
    protected PowerTarget target() {
        return pdu.device().port("3");
    }

    @Override
    protected Duration actionTimeout() {
        return Duration.ofSeconds(10);
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(1);
    }

    @Override
    protected Duration deadlineGrace() {
        return Duration.ofMillis(500);
    }
}
