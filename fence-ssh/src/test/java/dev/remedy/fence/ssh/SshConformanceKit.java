package dev.remedy.fence.ssh;

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
import org.junit.jupiter.api.TestInstance;

/** The conformance kit against one plug of a simulated SSH device, for each profile a subclass names. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SshConformanceKit extends FenceAgentConformanceKit {

    private static final String PASSWORD = "conformance-ssh";

    private SshDeviceSimulator device;
    private int closedPort;

    /** The simulated device (its user is set here). */
    abstract SshDeviceSpec.Builder device();

    /** The profile that drives it. */
    abstract String profile();

    /** The plug the kit switches. */
    abstract String plug();

    @BeforeAll
    void start() throws IOException {
        device = SshDeviceSimulator.start(device().user("fence", PASSWORD).build());
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
    }

    @AfterAll
    void stop() {
        device.close();
    }

    private AgentConfig config(int port, String password) {
        return provider().configure().set("ip", device.host()).set("ipport", Integer.toString(port))
                .set("username", "fence").secret("password", Secret.of(password)).set("profile", profile())
                .set("plug", plug()).set("host_key_fingerprint", device.hostKeyFingerprint())
                .set("poll_interval", "50ms").build();
    }

    @Override
    protected AgentConfig reachableConfig() {
        return config(device.port(), PASSWORD);
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return config(closedPort, PASSWORD);
    }

    @Override
    protected Optional<AgentConfig> wrongCredentialsConfig() {
        return Optional.of(config(device.port(), "not-the-password"));
    }

    @Override
    protected PowerTarget target() {
        return device.device().port(plug());
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
