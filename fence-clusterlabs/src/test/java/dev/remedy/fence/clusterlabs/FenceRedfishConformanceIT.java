package dev.remedy.fence.clusterlabs;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * ClusterLabs' own {@code fence_redfish} (fence-agents, Python requests), run by the fence-agents agent, keeps the
 * fence-agent contract against the Redfish simulator over TLS. The simulator's certificate is made at its start and
 * the agent's environment carries no CA bundle of the test's, so the agent skips verification
 * ({@code ssl_insecure}).
 */
class FenceRedfishConformanceIT extends LoopbackConformanceKit {

    private static final String PASSWORD = "fence-redfish-it-secret";

    private static RedfishSimulator simulator;
    private static ClusterLabsFenceAgentProvider provider;

    @BeforeAll
    static void start() {
        PeerPrograms.require("fence_redfish", "fence-agents");
        simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD).systems("node-1").tls(true)
                .build());
        provider = new ClusterLabsFenceAgentProvider(Path.of(ClusterLabsFenceAgentProvider.DEFAULT_DIRECTORY))
                .specialise(Map.of("agent", "fence_redfish"));
    }

    @AfterAll
    static void stop() {
        if (simulator != null) {
            simulator.close();
        }
    }

    @Override
    protected FenceAgentProvider provider() {
        return provider;
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return provider.configure().set("agent", "fence_redfish").set("ip", "127.0.0.1")
                .set("ipport", Integer.toString(port)).set("username", "admin").set("ssl_insecure", "true")
                .secret("password", Secret.of(password)).build();
    }

    @Override
    protected int port() {
        return simulator.port();
    }

    @Override
    protected String password() {
        return PASSWORD;
    }

    @Override
    protected PowerTarget target() {
        return simulator.system("node-1").powerTarget();
    }

    @Override
    protected Duration actionTimeout() {
        return Duration.ofSeconds(30);
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(3);
    }
}
