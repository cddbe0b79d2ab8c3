package dev.remedy.fence.redfish;

import dev.remedy.spi.FenceAgentProvider;
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

/** The redfish-pdu agent keeps the fence-agent contract against an outlet of the simulator's Redfish PDU. */
class RedfishPduConformanceTest extends FenceAgentConformanceKit {

    private static final String PASSWORD = "conformance-pdu";

    private static RedfishSimulator simulator;
    private static int closedPort;

    @BeforeAll
    static void start() throws IOException {
        simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD).outlets("pdu-1", 8).build());
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
    }

    @AfterAll
    static void stop() {
        simulator.close();
    }

    @Override
    protected FenceAgentProvider provider() {
        return new RedfishPduAgentProvider();
    }

    private AgentConfig config(int port, String password) {
        return provider().configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(port)).set("ssl", "false")
                .set("username", "admin").secret("password", Secret.of(password)).set("plug", "3")
                .set("poll_interval", "50ms").build();
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
        return simulator.outlet("pdu-1", 3).powerTarget();
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
