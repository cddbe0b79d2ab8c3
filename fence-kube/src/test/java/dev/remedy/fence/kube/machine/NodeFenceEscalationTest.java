package dev.remedy.fence.kube.machine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.kube.remediation.NodeFenceRemediation;
import dev.remedy.fence.kube.remediation.NodeFenceRemediationSpec;
import dev.remedy.fence.kube.remediation.RemediationCrds;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A NodeFenceRemediation with the Cluster API proposal's flat {@code strategy: escalate} runs the escalate strategy
 * on its Machine's BareMetalHost, with its state in the remediation's typed status (declared, so that a real API
 * server keeps it), on the mock API server with the NodeFenceRemediation CRD applied.
 */
@EnableKubernetesMockClient(crud = true)
class NodeFenceEscalationTest {

    KubernetesClient client;
    MachineWorld world;
    NodeFenceEscalation escalation;

    @BeforeEach
    void setUp() {
        world = new MachineWorld(client, "v1beta1");
        RemediationCrds.apply(client);
        escalation = new NodeFenceEscalation(EscalateRemediator.builder(client).time(new FakeTimeSource()).build());
    }

    @Test
    @DisplayName("strategy escalate: power cycle through the host's reboot request, the phases in the typed status")
    void powerCycle() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        NodeFenceRemediation r = remediation("m", "escalate", true);

        assertThat(escalation.remediate(r, MachineWorld.node("m"))).isEmpty();
        assertThat(read("m").getStatus().getPhase()).isEqualTo("PoweringOff");
        assertThat(read("m").getStatus().getRetryCount()).isZero();
        assertThat(read("m").getStatus().getPhaseSince()).isNotBlank();
        assertThat(condition("m", "Processing")).isEqualTo("True");
        assertThat(world.hostObject("m").getMetadata().getAnnotations())
                .containsEntry(EscalateRemediator.rebootAnnotation(read("m").getMetadata().getUid()),
                        "{\"mode\":\"hard\"}");

        world.sync("m");
        assertThat(world.state("m").poweredOn()).isFalse();
        escalation.remediate(r, MachineWorld.node("m"));
        assertThat(read("m").getStatus().getPhase()).isEqualTo("WaitingForNode");

        world.sync("m");
        nodeReady("m");
        escalation.remediate(r, MachineWorld.node("m"));
        assertThat(read("m").getStatus().getPhase()).isEqualTo("Succeeded");
        assertThat(condition("m", "Succeeded")).isEqualTo("True");
        assertThat(world.state("m").poweredOn()).isTrue();
    }

    @Test
    @DisplayName("a strategy remedy does not run is refused with what to write instead")
    void unknownStrategy() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        Optional<String> refused = escalation.remediate(remediation("m", "reprovision", true), "n");
        assertThat(refused).hasValueSatisfying(why -> assertThat(why).contains("spec.strategy reprovision")
                .contains("strategy: escalate"));
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).isNullOrEmpty();
    }

    @Test
    @DisplayName("without a Machine naming a BareMetalHost the remediation is refused, so the health checker moves on")
    void noMachine() {
        Optional<String> refused = escalation.remediate(remediation("lost", "escalate", false), "n");
        assertThat(refused).hasValueSatisfying(why -> assertThat(why).contains("no Machine capi/lost"));
    }

    @Test
    @DisplayName("clean-up of a remediation being deleted releases the host it holds off")
    void cleanUpReleasesHost() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        NodeFenceRemediation r = remediation("m", "escalate", true);
        escalation.remediate(r, MachineWorld.node("m"));
        String key = EscalateRemediator.rebootAnnotation(read("m").getMetadata().getUid());
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).containsKey(key);
        client.resources(NodeFenceRemediation.class).inNamespace(MachineWorld.NAMESPACE).withName("m").edit(o -> {
            o.getMetadata().setFinalizers(List.of("remedy.dev/node-fence-remediation"));
            return o;
        });
        client.resources(NodeFenceRemediation.class).inNamespace(MachineWorld.NAMESPACE).withName("m").delete();

        escalation.cleanUp(read("m"), MachineWorld.node("m"));

        assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(key);
    }

    private NodeFenceRemediation remediation(String machine, String strategy, boolean owned) {
        NodeFenceRemediationSpec spec = new NodeFenceRemediationSpec();
        spec.setStrategy(strategy);
        spec.setDeleteAfterRetries(1);
        spec.setPowerOnTimeoutSeconds(600);
        spec.setPowerOffTimeoutSeconds(120);
        NodeFenceRemediation r = new NodeFenceRemediation();
        ObjectMetaBuilder meta = new ObjectMetaBuilder().withNamespace(MachineWorld.NAMESPACE).withName(machine);
        if (owned) {
            meta.withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("cluster.x-k8s.io/v1beta1")
                    .withKind("Machine").withName(machine).withUid(world.machine(machine).getMetadata().getUid())
                    .build());
        }
        r.setMetadata(meta.build());
        r.setSpec(spec);
        return client.resources(NodeFenceRemediation.class).inNamespace(MachineWorld.NAMESPACE).resource(r).create();
    }

    private NodeFenceRemediation read(String name) {
        return client.resources(NodeFenceRemediation.class).inNamespace(MachineWorld.NAMESPACE).withName(name).get();
    }

    private String condition(String name, String type) {
        return read(name).getStatus().getConditions().stream().filter(c -> type.equals(c.getType()))
                .map(Condition::getStatus).findFirst().orElse(null);
    }

    private void nodeReady(String machine) {
        client.nodes().withName(MachineWorld.node(machine)).editStatus(n -> {
            n.getStatus().setConditions(List.of(new NodeCondition(null, null, null, null, "True", "Ready")));
            return n;
        });
    }
}
