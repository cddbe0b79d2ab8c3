package dev.remedy.fence.kube.agent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.BeforeAll;

/**
 * The {@code metal3} agent keeps the fence-agent contract against a BareMetalHost on the mock API server, whose
 * power the fake bare-metal operator moves on its own thread by remedy-core's reboot rules. The agent is configured
 * as a user would: a kubeconfig file and a token. Not checked: wrong credentials, since the mock API server accepts
 * every token (a real one answers 401, which the agent reports as FAILED naming the token; {@link Metal3ConformanceIT}
 * checks it).
 */
@EnableKubernetesMockClient(crud = true)
class Metal3ConformanceTest extends Metal3Conformance {

    static KubernetesClient client;

    @BeforeAll
    static void start() {
        startOperator(client);
    }

    @Override
    protected KubernetesClient client() {
        return client;
    }
}
