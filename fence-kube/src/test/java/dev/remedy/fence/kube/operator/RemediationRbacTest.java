package dev.remedy.fence.kube.operator;

import dev.remedy.fence.kube.testing.RbacCheck;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.storm.StormListener;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.storm.Threshold;
import dev.remedy.fence.kube.cluster.KubeClusterOperations;
import dev.remedy.fence.kube.remediation.NodeFenceRemediation;
import dev.remedy.fence.kube.remediation.RemediationController;
import dev.remedy.fence.kube.remediation.RemediationCrds;
import dev.remedy.fence.kube.remediation.RemediationPlans;
import dev.remedy.fence.kube.remediation.internal.MachineConditions;
import dev.remedy.fence.kube.store.KubeFenceStateStore;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The requests the remediation controller and its engine make for a Machine's remediation (finalizer, status,
 * Secrets, the Machine's status, core Events, the node's release) are all allowed by deploy/20-rbac.yaml.
 */
@DisplayName("RBAC of the remediation controller")
@EnableKubernetesMockClient(crud = true)
class RemediationRbacTest {

    private static final String NS = "capi-workers";

    KubernetesClient client;
    KubernetesMockServer server;

    @Test
    @DisplayName("a Machine's remediation fenced with a password from a Secret: every request is allowed")
    void everyRequestIsAllowed() throws Exception {
        NodeFenceCrd.apply(client);
        RemediationCrds.apply(client);
        client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName("machines.cluster.x-k8s.io").endMetadata().withNewSpec()
                .withGroup("cluster.x-k8s.io").withScope("Namespaced").withNewNames().withKind("Machine")
                .withPlural("machines").withSingular("machine").endNames().addNewVersion().withName("v1beta2")
                .withServed(true).withStorage(true).withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build()).create();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("w1").endMetadata().withNewStatus()
                .withConditions(new NodeConditionBuilder().withType("Ready").withStatus("False")
                        .withLastTransitionTime(Instant.now().toString()).build()).endStatus().build()).create();
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("bmc").endMetadata()
                .withData(Map.of("--password", Base64.getEncoder().encodeToString("pw".getBytes(
                        StandardCharsets.UTF_8)))).build()).create();
        GenericKubernetesResource machine = new GenericKubernetesResource();
        machine.setApiVersion("cluster.x-k8s.io/v1beta2");
        machine.setKind("Machine");
        machine.setMetadata(new ObjectMeta());
        machine.getMetadata().setName("m1");
        machine.getMetadata().setNamespace(NS);
        var machines = client.genericKubernetesResources(MachineConditions.context("cluster.x-k8s.io/v1beta2"))
                .inNamespace(NS);
        GenericKubernetesResource created = machines.resource(machine).create();
        created.setAdditionalProperty("status", Map.of("nodeRef", Map.of("name", "w1")));
        machines.resource(created).updateStatus();
        NodeFenceRemediation cr = new NodeFenceRemediation();
        cr.getMetadata().setName("m1");
        cr.getMetadata().setNamespace(NS);
        cr.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("cluster.x-k8s.io/v1beta2")
                .withKind("Machine").withName("m1").withUid(created.getMetadata().getUid()).build()));
        cr.getSpec().setAgent(FakeFenceAgentProvider.TYPE);
        cr.getSpec().setSharedParameters(Map.of("--plug", "w1", "--poll-interval", "50ms", "--power-wait", "0s"));
        cr.getSpec().setSharedSecretName("bmc");
        cr.getSpec().setRemediationStrategy("OutOfServiceTaint");
        client.resources(NodeFenceRemediation.class).inNamespace(NS).resource(cr).create();
        FakePowerLab lab = new FakePowerLab();
        FenceAgentRegistry agents = FenceAgentRegistry.of(new FakeFenceAgentProvider(lab));

        try (KubernetesClient operatorClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(client
                .getConfiguration()).withUserAgent(RbacCheck.USER_AGENT).build()).build()) {
            RemediationPlans plans = new RemediationPlans();
            KubeClusterOperations cluster = KubeClusterOperations.builder(operatorClient)
                    .releaseTimeout(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).build();
            try (FenceEngine engine = FenceEngine.builder().store(new KubeFenceStateStore(operatorClient))
                    .cluster(cluster).agents(agents).plans(plans.over(node -> Optional.empty()))
                    .releaseStrategies(plans::release).settings(FlowSettings.custom().hold(Duration.ofMillis(100))
                            .build()).threads(2).build();
                 RemediationController controller = RemediationController.builder(operatorClient, engine, agents,
                         plans).cluster(cluster).storm(StormSettings.custom().minHealthy(Threshold.percent(0))
                         .quietPeriod(Duration.ZERO).build(), StormListener.NONE, Instant.EPOCH)
                         .periods(Duration.ofSeconds(1), Duration.ofMillis(100)).build()) {
                engine.start();
                controller.start();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                for (int i = 0; i < 600 && System.nanoTime() < deadline && !succeeded(); i++) {
                    engine.tick();
                    Thread.sleep(50);
                }
                assertThat(succeeded()).as("the remediation succeeded").isTrue();
                assertThat(lab.find("w1").orElseThrow().history()).contains(PowerState.OFF);
                assertThat(MachineConditions.status(machines.withName("m1").get(), "ExternallyRemediated"))
                        .as("written by remedy with Cluster API's only reason, WaitingForRemediation").contains("False");
            }
        }

        assertThat(RbacCheck.deniedRequests(server, client)).as("requests deploy/20-rbac.yaml does not allow")
                .isEmpty();
    }

    private boolean succeeded() {
        NodeFenceRemediation cr = client.resources(NodeFenceRemediation.class).inNamespace(NS).withName("m1").get();
        return cr != null && cr.getStatus() != null && cr.getStatus().getConditions().stream()
                .anyMatch(c -> "Succeeded".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
