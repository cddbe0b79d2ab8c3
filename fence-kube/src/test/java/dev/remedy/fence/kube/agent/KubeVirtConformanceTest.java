package dev.remedy.fence.kube.agent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.BeforeAll;

/**
 * The {@code kubevirt} agent keeps the fence-agent contract against a VirtualMachine on the mock API server, whose
 * instance the fake KubeVirt moves through its phases on its own thread. The agent is configured as a
 * {@code fence_kubevirt} user would ({@code plug}, {@code namespace}, {@code kubeconfig}) plus a token. Not checked:
 * wrong credentials, since the mock API server accepts every token ({@link KubeVirtConformanceIT} checks them).
 */
@EnableKubernetesMockClient(crud = true)
class KubeVirtConformanceTest extends KubeVirtConformance {

    static KubernetesClient client;

    @BeforeAll
    static void start() {
        startKubeVirt(client);
    }

    @Override
    protected KubernetesClient client() {
        return client;
    }
}
