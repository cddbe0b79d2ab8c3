package dev.remedy.fence.kube.operator;

import dev.remedy.fence.kube.testing.RbacCheck;
import static dev.remedy.fence.kube.operator.OperatorFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.FlowSettings;
import dev.remedy.fence.kube.ha.NodeRemediationLease;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The operator end to end on the mock API server in CRUD mode, escalating from a fence to an external remediation: the
 * node's BMC never answers, the fence flow gives up, the policy's next remedy instantiates a SelfNodeRemediationTemplate
 * for the node, the test plays the remediator (Succeeded=True) and the node turns Ready, and remedy deletes the
 * object; every request the operator sent is one the RBAC of {@code deploy/} allows.
 */
@EnableKubernetesMockClient(crud = true)
class ExternalEscalationTest {

    private static final String POLICIES = """
            policies:
              - name: workers
                unhealthyConditions: [{type: Ready, status: "False", duration: 300s}]
                escalation:
                  - {name: fence, fence: {}, timeout: 10m}
                  - name: snr
                    external: {apiVersion: self-node-remediation.medik8s.io/v1alpha1,
                               kind: SelfNodeRemediationTemplate, name: snr-oos}
                    timeout: 10m
                storm: {quietPeriod: 0s}
            """;
    private static final String FENCE = """
            templates:
              bmc: {agent: fake, parameters: {username: admin}, secrets: {password: {secret: {name: bmc, key: pw}}}}
            topologies:
              - name: default
                power_management: {timeout: 2s, levels: [[bmc]]}
            nodes:
              worker-1: {bmc: {plug: unreachable-worker-1}}
            """;
    private static final ResourceDefinitionContext SNR_TEMPLATE = kind("SelfNodeRemediationTemplate",
            "selfnoderemediationtemplates");
    private static final ResourceDefinitionContext SNR = kind("SelfNodeRemediation", "selfnoderemediations");

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

    private static ResourceDefinitionContext kind(String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup("self-node-remediation.medik8s.io")
                .withVersion("v1alpha1").withKind(kind).withPlural(plural).withNamespaced(true).build();
    }

    @Test
    @DisplayName("a fence that gives up escalates to an external remediation template; remedy instantiates it, follows "
            + "Succeeded, and deletes it once the node is healthy")
    void fenceThenExternal() throws Exception {
        NodeFenceCrd.apply(client);
        OperatorFixtures.configure(client, POLICIES, FENCE);
        GenericKubernetesResource template = new GenericKubernetesResource();
        template.setApiVersion("self-node-remediation.medik8s.io/v1alpha1");
        template.setKind("SelfNodeRemediationTemplate");
        template.setMetadata(new ObjectMetaBuilder().withNamespace("remedy").withName("snr-oos").build());
        template.setAdditionalProperty("spec", Map.of("template", Map.of("spec",
                Map.of("remediationStrategy", "OutOfServiceTaint"))));
        client.genericKubernetesResources(SNR_TEMPLATE).inNamespace("remedy").resource(template).create();
        client.nodes().resource(node("worker-1", "False", Instant.now().minus(Duration.ofMinutes(10)))).create();
        client.nodes().resource(node("worker-2", "True", Instant.now())).create();
        client.nodes().resource(node("worker-3", "True", Instant.now())).create();

        KubernetesClient operatorClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(client
                .getConfiguration()).withUserAgent(RbacCheck.USER_AGENT).build()).build();
        operator = RemedyOperator.builder(operatorClient).identity("replica-1")
                .agents(FenceAgentRegistry.of(new FakeFenceAgentProvider(new FakePowerLab())))
                .flow(FlowSettings.custom().hold(Duration.ofMillis(200)).maxRestarts(0).build())
                .lease(Duration.ofMillis(1500), Duration.ofMillis(1000), Duration.ofMillis(200))
                .periods(Duration.ofSeconds(1), Duration.ofMillis(100))
                .build();
        operator.start();

        await("the fence gives up and the SelfNodeRemediation is created", () -> snr() != null);
        GenericKubernetesResource cr = snr();
        assertThat(cr.getMetadata().getAnnotations()).containsEntry("remediation.medik8s.io/node-name", "worker-1")
                .containsEntry("remediation.medik8s.io/template-name", "snr-oos");
        assertThat(cr.getAdditionalProperties().get("spec")).isEqualTo(Map.of("remediationStrategy",
                "OutOfServiceTaint"));

        assertThat(nodeLease()).as("the medik8s node Lease is held while the external remedy runs").isNotNull();
        assertThat(nodeLease().getSpec().getHolderIdentity()).isEqualTo("remedy-default");

        cr.setAdditionalProperty("status", Map.of("conditions", List.of(Map.of("type", "Succeeded", "status", "True",
                "lastTransitionTime", Instant.now().toString()))));
        client.genericKubernetesResources(SNR).inNamespace("remedy").resource(cr).update();
        client.nodes().withName("worker-1").edit(n -> {
            n.getStatus().setConditions(node("worker-1", "True", Instant.now()).getStatus().getConditions());
            return n;
        });
        await("the healthy node's SelfNodeRemediation is deleted", () -> snr() == null);
        await("the node's annotations naming it are removed", () -> {
            Map<String, String> annotations = client.nodes().withName("worker-1").get().getMetadata()
                    .getAnnotations();
            return annotations == null || !annotations.containsKey("remedy.dev/external-remedy");
        });
        await("the node Lease is given back once the node is healthy", () -> nodeLease() == null);
        assertThat(events()).anyMatch(e -> e.startsWith("ExternalRemediationCreated: SelfNodeRemediation "
                + "remedy/worker-1 created for remedy snr"));

        operator.close();
        operatorClient.close();
        assertThat(RbacCheck.deniedRequests(server, client)).as("requests deploy/20-rbac.yaml does not allow")
                .isEmpty();
    }

    private Lease nodeLease() {
        return client.leases().inNamespace(NodeRemediationLease.DEFAULT_NAMESPACE)
                .withName(NodeRemediationLease.leaseName("worker-1")).get();
    }

    private GenericKubernetesResource snr() {
        return client.genericKubernetesResources(SNR).inNamespace("remedy").withName("worker-1").get();
    }

    private List<String> events() {
        return client.events().v1().events().inAnyNamespace().list().getItems().stream()
                .map(e -> e.getReason() + ": " + e.getNote()).toList();
    }


    private void await(String what, BooleanSupplier condition) {
        OperatorFixtures.await(what, condition, this::events);
    }
}
