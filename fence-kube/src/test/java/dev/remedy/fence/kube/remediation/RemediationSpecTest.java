package dev.remedy.fence.kube.remediation;

import static dev.remedy.fence.kube.remediation.RemediationWorld.NAMESPACE;
import static dev.remedy.fence.kube.remediation.RemediationWorld.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.kube.remediation.internal.RemediationConditions;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What a NodeFenceRemediation's spec may say: a FenceAgentsRemediation migrated by changing apiVersion and kind, an
 * agent without remedy equivalent, invalid parameters, and the escalation strategy this controller leaves alone.
 */
@DisplayName("NodeFenceRemediation specs")
@EnableKubernetesMockClient(crud = true)
class RemediationSpecTest {

    private static final String NODE = "worker-1";

    KubernetesClient client;
    private RemediationWorld world;

    @AfterEach
    void tearDown() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    @DisplayName("a FenceAgentsRemediation as FAR's documentation writes it (fence_ipmilan, --ip, --ipport per node, "
            + "--username, --password, --lanplus \"\"), changed only in apiVersion and kind, is accepted and fences")
    void migratedFenceAgentsRemediation() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        world.node("worker-2");
        String far = """
                apiVersion: fence-agents-remediation.medik8s.io/v1alpha1
                kind: FenceAgentsRemediation
                metadata:
                  name: %s
                  namespace: %s
                spec:
                  agent: fence_ipmilan
                  remediationStrategy: OutOfServiceTaint
                  retrycount: 5
                  retryinterval: 5s
                  timeout: 60s
                  sharedparameters:
                    --ip: "%s"
                    --username: "%s"
                    --password: "%s"
                    --lanplus: ""
                    --action: reboot
                  nodeparameters:
                    --ipport:
                      %s: "%d"
                      worker-2: "6230"
                """.formatted(NODE, NAMESPACE, bmc.host(), RemediationWorld.USER, RemediationWorld.PASSWORD, NODE,
                bmc.port());
        String migrated = far.replace("apiVersion: fence-agents-remediation.medik8s.io/v1alpha1",
                "apiVersion: remedy.dev/v1alpha1").replace("kind: FenceAgentsRemediation", "kind: NodeFenceRemediation");

        NodeFenceRemediation cr = client.resources(NodeFenceRemediation.class)
                .load(new ByteArrayInputStream(migrated.getBytes(StandardCharsets.UTF_8))).item();
        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(cr).create();

        await("Succeeded=True", () -> world.has(NODE, RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully"));
        assertThat(bmc.powerTarget().history()).contains(PowerState.OFF);
        assertThat(world.condition(NODE, RemediationConditions.PERMANENT_NODE_DELETION_EXPECTED))
                .as("OutOfServiceTaint keeps the Node object").isEmpty();
        assertThat(client.nodes().withName(NODE).get()).as("the Node object is never deleted").isNotNull();
        assertThat(world.record(NODE).orElseThrow().released()).isTrue();
    }

    @Test
    @DisplayName("the README's template (deploy/examples/nodehealthcheck-remediator.yaml), instantiated as "
            + "NodeHealthCheck does with generateName, fences its node (only the BMC's address changed)")
    void exampleTemplate() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        world.node("worker-2");
        String example = Files.readString(Path.of("../deploy/examples/nodehealthcheck-remediator.yaml"));
        String templateYaml = example.split("(?m)^---$")[0]
                .replace("openshift-workload-availability", NAMESPACE)
                .replace("worker-1: 10.0.0.11", NODE + ": \"" + bmc.host() + "\"")
                .replace("--lanplus: \"\"", "--lanplus: \"\"\n        --ipport: \"" + bmc.port() + "\"");
        assertThat(templateYaml).contains(bmc.host()).contains(Integer.toString(bmc.port()));
        NodeFenceRemediationTemplate template = client.resources(NodeFenceRemediationTemplate.class)
                .load(new ByteArrayInputStream(templateYaml.getBytes(StandardCharsets.UTF_8))).item();
        assertThat(template.getMetadata().getAnnotations())
                .containsEntry(NodeFenceRemediationTemplate.MULTIPLE_TEMPLATES, "true");
        client.resources(NodeFenceRemediationTemplate.class).inNamespace(NAMESPACE).resource(template).create();
        client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata()
                .withName(template.getSpec().getTemplate().getSpec().getSharedSecretName()).endMetadata()
                .withStringData(Map.of("--password", RemediationWorld.PASSWORD)).build()).create();

        NodeFenceRemediation cr = new NodeFenceRemediation();
        cr.getMetadata().setGenerateName(NODE + "-");
        cr.getMetadata().setNamespace(NAMESPACE);
        cr.getMetadata().setAnnotations(Map.of("remediation.medik8s.io/node-name", NODE,
                "remediation.medik8s.io/template-name", template.getMetadata().getName()));
        cr.setSpec(template.getSpec().getTemplate().getSpec());
        String name = client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(cr).create()
                .getMetadata().getName();

        await("Succeeded=True", () -> world.has(name, RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully"));
        assertThat(bmc.powerTarget().history()).contains(PowerState.OFF);
        assertThat(world.record(NODE).orElseThrow().released()).isTrue();
    }

    @Test
    @DisplayName("an agent remedy has no native equivalent for fails with FenceAgentFailed, naming the agent and the "
            + "missing ClusterLabs bridge, before anything is done to the node")
    void unknownAgent() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        create("fence_apc_snmp", RemediationWorld.farParameters(bmc));

        await("FenceAgentFailed", () -> world.has(NODE, RemediationConditions.SUCCEEDED, "False", "FenceAgentFailed"));
        String message = world.condition(NODE, RemediationConditions.SUCCEEDED).orElseThrow().getMessage();
        assertThat(message).contains("fence_apc_snmp").contains("ClusterLabs bridge").contains("not available yet");
        assertThat(world.has(NODE, RemediationConditions.PROCESSING, "False", "FenceAgentFailed")).isTrue();
        assertThat(world.record(NODE)).isEmpty();
        assertThat(world.cordoned(NODE)).isFalse();
        await("the Event", () -> !world.events(NODE).isEmpty());
        assertThat(world.events(NODE)).extracting(Event::getReason).containsExactly("RemediationCannotStart");
    }

    @Test
    @DisplayName("invalid parameters fail with every problem listed and no secret in the message, before anything "
            + "is done to the node")
    void badParameters() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        Map<String, String> parameters = new LinkedHashMap<>(RemediationWorld.farParameters(bmc));
        parameters.remove("--username");
        parameters.put("--ipport", "not-a-port");
        parameters.put("--no-such-option", "1");
        create("fence_ipmilan", parameters);

        await("FenceAgentFailed", () -> world.has(NODE, RemediationConditions.SUCCEEDED, "False", "FenceAgentFailed"));
        String message = world.condition(NODE, RemediationConditions.SUCCEEDED).orElseThrow().getMessage();
        assertThat(message).contains("username").contains("ipport").contains("no_such_option")
                .doesNotContain(RemediationWorld.PASSWORD);
        assertThat(world.record(NODE)).isEmpty();
        assertThat(bmc.powerTarget().history()).doesNotContain(PowerState.OFF);
    }

    @Test
    @DisplayName("a remediation with spec.strategy gets the finalizer and is otherwise left to the escalation driver;"
            + " with none plugged in it says so in Succeeded=False and the node is not touched")
    void strategyIsLeftToItsDriver() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        NodeFenceRemediation cr = remediation("fence_ipmilan", RemediationWorld.farParameters(bmc));
        cr.getSpec().setStrategy("escalate");
        cr.getSpec().setDeleteAfterRetries(3);
        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(cr).create();

        await("not supported", () -> world.has(NODE, RemediationConditions.SUCCEEDED, "False", "FenceAgentFailed"));
        assertThat(world.condition(NODE, RemediationConditions.SUCCEEDED).orElseThrow().getMessage())
                .contains("spec.strategy escalate is not supported");
        assertThat(world.get(NODE).getMetadata().getFinalizers()).containsExactly(RemediationController.FINALIZER);
        assertThat(world.record(NODE)).isEmpty();

        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(NODE).delete();

        await("the finalizer dropped", () -> world.get(NODE) == null);
    }

    private void create(String agent, Map<String, String> parameters) {
        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(remediation(agent, parameters))
                .create();
    }

    private static NodeFenceRemediation remediation(String agent, Map<String, String> parameters) {
        NodeFenceRemediation cr = new NodeFenceRemediation();
        cr.getMetadata().setName(NODE);
        cr.getMetadata().setNamespace(NAMESPACE);
        cr.getSpec().setAgent(agent);
        cr.getSpec().setSharedParameters(parameters);
        return cr;
    }
}
