package dev.remedy.fence.kube.agent;

import dev.remedy.fence.kube.testing.FakeBareMetalOperator;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.FenceAgentConformanceKit;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code metal3} agent keeps the fence-agent contract against a BareMetalHost on the mock API server, whose
 * power the fake bare-metal operator moves on its own thread by remedy-core's reboot rules. The agent is configured
 * as a user would: a kubeconfig file and a token. Not checked: wrong credentials, since the mock API server accepts
 * every token (a real one answers 401, which the agent reports as FAILED naming the token).
 */
@EnableKubernetesMockClient(crud = true)
class Metal3ConformanceTest extends FenceAgentConformanceKit {

    private static final String HOST = "host-1";

    static KubernetesClient client;
    @TempDir
    static Path dir;
    private static FakeBareMetalOperator operator;

    @BeforeAll
    static void startOperator() {
        KubeConformance.logForTheKit();
        KubeObjects.installCrds(client);
        KubeObjects.host(client, HOST);
        operator = KubeObjects.operator(client, HOST);
        operator.start();
    }

    @AfterAll
    static void stopOperator() throws InterruptedException {
        KubeConformance.restoreLogging();
        operator.close();
    }

    @Override
    protected FenceAgentProvider provider() {
        return new Metal3FenceAgentProvider();
    }

    @Override
    protected AgentConfig reachableConfig() {
        return KubeConformance.config(provider().configure().set("host", HOST), dir, "reachable",
                client.getMasterUrl().toString()).build();
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return KubeConformance.config(provider().configure().set("host", HOST), dir, "unreachable",
                KubeConformance.closedPort()).build();
    }

    @Override
    protected PowerTarget target() {
        return operator.target();
    }

    @Override
    protected Duration actionTimeout() {
        return Duration.ofSeconds(10);
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(3);
    }

    @Override
    protected Duration deadlineGrace() {
        return Duration.ofSeconds(1);
    }
}
