package dev.remedy.fence.redfish;

import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.testkit.PowerTarget;
import dev.remedy.testkit.conformance.FenceAgentConformanceKit;
import dev.remedy.testkit.redfish.RedfishSimulator;
import dev.remedy.testkit.redfish.RedfishSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The conformance kit against one target of the testkit's Redfish simulator, for each agent a subclass names. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RedfishConformanceKit extends FenceAgentConformanceKit {

    private static final String PASSWORD = "conformance-redfish";

    private RedfishSimulator simulator;
    private int closedPort;

    /** The simulated service (its user is set here). */
    abstract RedfishSpec.Builder service();

    /** The parameters that choose the target ({@code plug}, {@code pdu}), added to the connection ones. */
    abstract AgentConfig.Builder target(AgentConfig.Builder config);

    /** The power the kit switches. */
    abstract PowerTarget target(RedfishSimulator service);

    @BeforeAll
    void start() throws IOException {
        simulator = RedfishSimulator.start(service().user("admin", PASSWORD).build());
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
    }

    @AfterAll
    void stop() {
        simulator.close();
    }

    private AgentConfig config(int port, String password) {
        return target(provider().configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(port))
                .set("ssl", "false").set("username", "admin").secret("password", Secret.of(password))
                .set("poll_interval", "50ms")).build();
    }

    @Override
    protected AgentConfig reachableConfig() {
        return config(simulator.port(), PASSWORD);
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return config(closedPort, PASSWORD);
    }

    @Override
    protected Optional<AgentConfig> wrongCredentialsConfig() {
        return Optional.of(config(simulator.port(), "not-the-password"));
    }

    @Override
    protected PowerTarget target() {
        return target(simulator);
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
