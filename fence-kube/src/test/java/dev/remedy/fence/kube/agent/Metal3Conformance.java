package dev.remedy.fence.kube.agent;

import dev.remedy.fence.kube.testing.FakeBareMetalOperator;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.test.PowerTarget;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;

/**
 * The {@code metal3} agent under the conformance kit, against BareMetalHost {@value #HOST} whose power the fake
 * bare-metal operator moves on its own thread by remedy-core's reboot rules. A subclass gives the API server and calls
 * {@link #startOperator} from its {@code @BeforeAll}.
 */
abstract class Metal3Conformance extends KubeAgentConformance {

    static final String HOST = "host-1";

    private static FakeBareMetalOperator operator;

    /** Installs the CRDs, creates the host (provisioned, online, on) and starts its operator. */
    static void startOperator(KubernetesClient client) {
        KubeObjects.installCrds(client);
        KubeObjects.host(client, HOST);
        operator = KubeObjects.operator(client, HOST);
        operator.start();
    }

    @AfterAll
    static void stopOperator() throws InterruptedException {
        if (operator != null) {
            operator.close();
            operator = null;
        }
    }

    @Override
    protected FenceAgentProvider provider() {
        return new Metal3FenceAgentProvider();
    }

    @Override
    protected AgentConfig.Builder object(AgentConfig.Builder builder) {
        return builder.set("host", HOST);
    }

    @Override
    protected PowerTarget target() {
        return operator.target();
    }
}
