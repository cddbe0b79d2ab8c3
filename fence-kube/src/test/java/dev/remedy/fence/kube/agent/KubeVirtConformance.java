package dev.remedy.fence.kube.agent;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.test.PowerTarget;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;

/**
 * The {@code kubevirt} agent under the conformance kit, against VirtualMachine {@value #VM} whose instance the fake
 * KubeVirt moves through its phases on its own thread. The agent is configured as a {@code fence_kubevirt} user would
 * ({@code plug}, {@code namespace}, {@code kubeconfig}) plus a token. A subclass gives the API server and calls
 * {@link #startKubeVirt} from its {@code @BeforeAll}.
 */
abstract class KubeVirtConformance extends KubeAgentConformance {

    static final String VM = "vm-1";

    private static FakeKubeVirt kubevirt;

    /** Installs the CRDs, creates the VM ({@code runStrategy: Always}) and starts the fake KubeVirt. */
    static void startKubeVirt(KubernetesClient client) {
        KubeObjects.installCrds(client);
        KubeObjects.vm(client, VM, "runStrategy", "Always");
        kubevirt = new FakeKubeVirt(client, VM);
        kubevirt.start();
    }

    @AfterAll
    static void stopKubeVirt() throws InterruptedException {
        if (kubevirt != null) {
            kubevirt.close();
            kubevirt = null;
        }
    }

    @Override
    protected FenceAgentProvider provider() {
        return new KubeVirtFenceAgentProvider();
    }

    @Override
    protected AgentConfig.Builder object(AgentConfig.Builder builder) {
        return builder.set("plug", VM);
    }

    @Override
    protected PowerTarget target() {
        return kubevirt.target();
    }
}
