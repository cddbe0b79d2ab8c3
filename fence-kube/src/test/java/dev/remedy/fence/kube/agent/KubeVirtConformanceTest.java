package dev.remedy.fence.kube.agent;

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
 * The {@code kubevirt} agent keeps the fence-agent contract against a VirtualMachine on the mock API server, whose
 * instance the fake KubeVirt moves through its phases on its own thread. The agent is configured as a
 * {@code fence_kubevirt} user would ({@code plug}, {@code namespace}, {@code kubeconfig}) plus a token. Not checked:
 * wrong credentials, since the mock API server accepts every token.
 */
@EnableKubernetesMockClient(crud = true)
class KubeVirtConformanceTest extends FenceAgentConformanceKit {

    private static final String VM = "vm-1";

    static KubernetesClient client;
    @TempDir
    static Path dir;
    private static FakeKubeVirt kubevirt;

    @BeforeAll
    static void startKubeVirt() {
        KubeConformance.logForTheKit();
        KubeObjects.installCrds(client);
        KubeObjects.vm(client, VM, "runStrategy", "Always");
        kubevirt = new FakeKubeVirt(client, VM);
        kubevirt.start();
    }

    @AfterAll
    static void stopKubeVirt() throws InterruptedException {
        KubeConformance.restoreLogging();
        kubevirt.close();
    }

    @Override
    protected FenceAgentProvider provider() {
        return new KubeVirtFenceAgentProvider();
    }

    @Override
    protected AgentConfig reachableConfig() {
        return KubeConformance.config(provider().configure().set("plug", VM), dir, "reachable",
                client.getMasterUrl().toString()).build();
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return KubeConformance.config(provider().configure().set("plug", VM), dir, "unreachable",
                KubeConformance.closedPort()).build();
    }

    @Override
    protected PowerTarget target() {
        return kubevirt.target();
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
