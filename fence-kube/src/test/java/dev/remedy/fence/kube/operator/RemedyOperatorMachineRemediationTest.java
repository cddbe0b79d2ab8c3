package dev.remedy.fence.kube.operator;

import dev.remedy.fence.kube.testing.RbacCheck;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.rules.MachineRemediationState;
import dev.remedy.fence.kube.machine.MachineWorld;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The operator's opt-in machine remediation: the leader runs the driver, within deploy/20-rbac.yaml. */
@EnableKubernetesMockClient(crud = true)
class RemedyOperatorMachineRemediationTest {

    KubernetesClient client;
    KubernetesMockServer server;
    private RemedyOperator operator;

    @AfterEach
    void stop() {
        if (operator != null) {
            operator.close();
        }
        client.close();
    }

    @Test
    @DisplayName("with machineRemediation on, the leader remediates an annotated Machine, within its RBAC")
    void leaderRemediatesMachines() throws Exception {
        MachineWorld world = new MachineWorld(client, "v1beta1");
        world.create("m", new MachineRemediationState(true, true, true, false));
        String firstNode = world.nodeObject("m").getMetadata().getUid();
        KubernetesClient operatorClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(client
                .getConfiguration()).withUserAgent(RbacCheck.USER_AGENT).build()).build();
        operator = RemedyOperator.builder(operatorClient).identity("replica-1").namespace(MachineWorld.BACKUPS)
                .agents(FenceAgentRegistry.of(new FakeFenceAgentProvider(new FakePowerLab())))
                .lease(Duration.ofMillis(1500), Duration.ofMillis(1000), Duration.ofMillis(200))
                .periods(Duration.ofSeconds(1), Duration.ofMillis(100))
                .machineRemediation(true, "v1beta1")
                .build();
        operator.start();

        MachineRemediationState done = new MachineRemediationState(true, false, true, false);
        for (int i = 0; i < 600 && !world.state("m").equals(done); i++) {
            Thread.sleep(50);
            world.sync("m");
        }

        assertThat(world.state("m")).isEqualTo(done);
        assertThat(world.nodeObject("m").getMetadata().getUid()).as("the Node was deleted and restored")
                .isNotEqualTo(firstNode);
        operator.close();
        assertThat(RbacCheck.deniedRequests(server, client)).as("requests deploy/20-rbac.yaml does not allow")
                .isEmpty();
    }
}
