package dev.remedy.fence.kube.remediation;

import static dev.remedy.fence.kube.remediation.RemediationWorld.NAMESPACE;
import static dev.remedy.fence.kube.remediation.RemediationWorld.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.FenceState;
import dev.remedy.fence.kube.remediation.internal.RemediationConditions;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The NodeHealthCheck contract, on the CRUD mock API server with a real engine fencing through the {@code ipmi} agent
 * against the in-JVM BMC simulator: a template, a remediation created exactly as NodeHealthCheck creates one from it,
 * then its conditions, finalizer, timeout annotation and deletion.
 */
@DisplayName("remedy as a NodeHealthCheck remediator")
@EnableKubernetesMockClient(crud = true)
class NodeHealthCheckContractTest {

    private static final String NODE = "worker-1";
    private static final String TEMPLATE = "remedy-fence-template";

    KubernetesClient client;
    private RemediationWorld world;

    @AfterEach
    void tearDown() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    @DisplayName("a remediation NodeHealthCheck creates from a template gets the finalizer, RemediationStarted, then "
            + "FenceAgentSucceeded and RemediationFinishedSuccessfully; the node is fenced, released, powered on and "
            + "recovered; deleting the remediation drops the finalizer, and remedy never deletes it itself")
    void fencesAndFinishes() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        world.node("worker-2");
        NodeFenceRemediationTemplate template = template(RemediationWorld.farParameters(bmc));
        List<List<String>> seen = watchConditions();

        String name = createAsNodeHealthCheck(template);

        await("Succeeded=True", () -> world.has(name, RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully"));
        NodeFenceRemediation done = world.get(name);
        assertThat(done.getMetadata().getFinalizers()).containsExactly(RemediationController.FINALIZER);
        assertThat(world.has(name, RemediationConditions.PROCESSING, "False", "RemediationFinishedSuccessfully"))
                .isTrue();
        assertThat(world.has(name, RemediationConditions.FENCE_AGENT_ACTION_SUCCEEDED, "True", "FenceAgentSucceeded"))
                .isTrue();
        assertThat(world.has(name, RemediationConditions.PERMANENT_NODE_DELETION_EXPECTED, "True", "ResourceDeletion"))
                .as("ResourceDeletion deletes the Node object: NodeHealthCheck must keep the remediation").isTrue();
        assertThat(seen.get(0)).as("the first status written").containsExactly("Processing=True/RemediationStarted",
                "FenceAgentActionSucceeded=Unknown/RemediationStarted", "Succeeded=Unknown/RemediationStarted",
                "PermanentNodeDeletionExpected=True/ResourceDeletion");
        Instant started = transition(name, RemediationConditions.FENCE_AGENT_ACTION_SUCCEEDED);
        Instant finished = transition(name, RemediationConditions.SUCCEEDED);
        assertThat(started).isBeforeOrEqualTo(finished);
        assertThat(bmc.powerTarget().history()).contains(PowerState.OFF);

        await("powered on again", () -> RemediationWorld.offThenOn(bmc));
        await("the Node restored", () -> client.nodes().withName(NODE).get() != null);
        world.ready(NODE);
        await("the flow finished", () -> world.record(NODE).filter(r -> r.state() == FenceState.FINAL).isPresent());
        Node recovered = client.nodes().withName(NODE).get();
        assertThat(recovered.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
        assertThat(recovered.getSpec().getTaints()).noneMatch(t -> t.getKey().equals(Taint.FENCING.key()));
        assertThat(world.record("worker-2")).as("only the named node is fenced").isEmpty();
        assertThat(reasons(name)).contains("RemediationStarted", "RemediationFinished");
        assertThat(world.events(name)).allMatch(e -> e.getMessage().startsWith("[remediation] "));
        assertThat(world.get(name)).as("remedy never deletes the remediation").isNotNull();

        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(name).delete();

        await("the finalizer dropped and the remediation gone", () -> world.get(name) == null);
    }

    @Test
    @DisplayName("the nhc-timed-out annotation stops a flow that has not powered the node off (force-stopped, cordon "
            + "and taint undone): Processing, FenceAgentActionSucceeded and Succeeded False with "
            + "RemediationInterruptedByNHC; the remediation stays until NodeHealthCheck deletes it")
    void timedOutByNodeHealthCheck() throws Exception {
        world = new RemediationWorld(client, Duration.ofSeconds(20), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        world.node("worker-2");
        String name = createAsNodeHealthCheck(template(RemediationWorld.farParameters(bmc)));
        await("the flow decided", () -> world.record(NODE).isPresent()
                && world.has(name, RemediationConditions.PROCESSING, "True", "RemediationStarted"));

        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(name).edit(cr -> {
            cr.getMetadata().getAnnotations().put(RemediationController.NHC_TIMED_OUT, "2026-11-26T01:00:00Z");
            return cr;
        });

        await("RemediationInterruptedByNHC", () -> world.has(name, RemediationConditions.PROCESSING, "False",
                "RemediationInterruptedByNHC"));
        assertThat(world.has(name, RemediationConditions.FENCE_AGENT_ACTION_SUCCEEDED, "False",
                "RemediationInterruptedByNHC")).isTrue();
        assertThat(world.has(name, RemediationConditions.SUCCEEDED, "False", "RemediationInterruptedByNHC")).isTrue();
        await("the flow force-stopped", () -> world.record(NODE).filter(r -> r.state() == FenceState.FINAL)
                .isPresent());
        assertThat(bmc.powerTarget().history()).doesNotContain(PowerState.OFF);
        assertThat(world.cordoned(NODE)).isFalse();
        await("the Event", () -> reasons(name).contains("RemediationStopped"));
        assertThat(reasons(name)).containsOnlyOnce("RemediationStopped");
        assertThat(world.get(name).getMetadata().getFinalizers()).containsExactly(RemediationController.FINALIZER);

        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(name).delete();

        await("the remediation gone once deleted", () -> world.get(name) == null);
        assertThat(bmc.powerTarget().history()).doesNotContain(PowerState.OFF);
    }

    @Test
    @DisplayName("the nhc-timed-out annotation after remedy sent OFF does not force-stop the flow: the remediation is "
            + "RemediationInterruptedByNHC, and the machine is still confirmed off, released and powered on again")
    void timedOutAfterOffNeverLeavesTheMachineOff() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE).powerChangeDelay(Duration.ofSeconds(3));
        world.node("worker-2");
        String name = createAsNodeHealthCheck(template(RemediationWorld.farParameters(bmc)));
        await("OFF sent", () -> world.record(NODE).filter(r -> r.poweredOff()).isPresent());

        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(name).edit(cr -> {
            cr.getMetadata().getAnnotations().put(RemediationController.NHC_TIMED_OUT, "2026-11-26T01:00:00Z");
            return cr;
        });

        await("RemediationInterruptedByNHC", () -> world.has(name, RemediationConditions.SUCCEEDED, "False",
                "RemediationInterruptedByNHC"));
        await("powered on again", () -> RemediationWorld.offThenOn(bmc));
        assertThat(world.record(NODE).orElseThrow().released()).as("the flow went on: confirmed off, released")
                .isTrue();
        assertThat(world.record(NODE).orElseThrow().reason()).doesNotContain("force-stopped");
    }

    @Test
    @DisplayName("after a failover to a new replica (new engine, empty plans) the remediation's running flow is resumed"
            + " with its plan made again from the spec: fenced once, one RemediationStarted")
    void resumesAfterFailover() throws Exception {
        world = new RemediationWorld(client, Duration.ofSeconds(3), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        world.node("worker-2");
        String name = createAsNodeHealthCheck(template(RemediationWorld.farParameters(bmc)));
        await("the flow decided", () -> world.record(NODE).isPresent()
                && world.has(name, RemediationConditions.PROCESSING, "True", "RemediationStarted"));

        world.failover();

        await("Succeeded=True", () -> world.has(name, RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully"));
        await("powered on again", () -> RemediationWorld.offThenOn(bmc));
        assertThat(bmc.powerTarget().history().stream().filter(PowerState.OFF::equals)).hasSize(1);
        assertThat(reasons(name).stream().filter("RemediationStarted"::equals)).hasSize(1);
    }

    @Test
    @DisplayName("a failover after Succeeded=True, while the flow still has to power the machine on and recover it: "
            + "the new replica makes the plan again, the machine is powered on, the node recovered, and the finalizer "
            + "dropped once the remediation is deleted")
    void failoverAfterSucceeded() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE).powerChangeDelay(Duration.ofSeconds(2));
        world.node("worker-2");
        String name = createAsNodeHealthCheck(template(RemediationWorld.farParameters(bmc), "5s"));
        await("Succeeded=True", () -> world.has(name, RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully"));

        world.failover();

        assertThat(world.record(NODE).orElseThrow().isSettled()).as("the flow still has to recover the node")
                .isFalse();
        recoveredThenDeleted(name, bmc);
    }

    @Test
    @DisplayName("a failover after NodeHealthCheck's timeout interrupted a flow that sent OFF: the new replica makes "
            + "the plan again, the machine is powered on, the node recovered, and the finalizer dropped on deletion")
    void failoverAfterTimeoutAfterOff() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE).powerChangeDelay(Duration.ofSeconds(2));
        world.node("worker-2");
        String name = createAsNodeHealthCheck(template(RemediationWorld.farParameters(bmc), "5s"));
        await("OFF sent", () -> world.record(NODE).filter(r -> r.poweredOff()).isPresent());
        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(name).edit(cr -> {
            cr.getMetadata().getAnnotations().put(RemediationController.NHC_TIMED_OUT, "2026-11-26T01:00:00Z");
            return cr;
        });
        await("RemediationInterruptedByNHC", () -> world.has(name, RemediationConditions.SUCCEEDED, "False",
                "RemediationInterruptedByNHC"));

        world.failover();

        recoveredThenDeleted(name, bmc);
    }

    @Test
    @DisplayName("a remediation deleted after remedy sent OFF keeps its finalizer while the flow runs, so that a "
            + "failover can make the plan again from its spec: the machine is powered on, the node recovered, then the"
            + " finalizer is dropped")
    void failoverAfterDeletionRequest() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE).powerChangeDelay(Duration.ofSeconds(2));
        world.node("worker-2");
        String name = createAsNodeHealthCheck(template(RemediationWorld.farParameters(bmc), "5s"));
        await("OFF sent", () -> world.record(NODE).filter(r -> r.poweredOff()).isPresent());

        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(name).delete();
        world.completedPasses(2);

        assertThat(world.get(name)).as("kept while the flow may act on the machine").isNotNull();
        assertThat(world.get(name).getMetadata().getFinalizers()).containsExactly(RemediationController.FINALIZER);
        world.failover();
        await("powered on again", () -> RemediationWorld.offThenOn(bmc));
        await("the Node restored", () -> client.nodes().withName(NODE).get() != null);
        await("the flow finished", () -> recovered(NODE));
        await("the finalizer dropped and the remediation gone", () -> world.get(name) == null);
        assertThat(bmc.powerTarget().history().stream().filter(PowerState.OFF::equals)).hasSize(1);
        assertThat(world.cordoned(NODE)).isFalse();
    }

    @Test
    @DisplayName("a decision the engine cannot save yet is not reported with the node's older, settled record: the "
            + "remediation waits (Processing=True, not saved yet) until the engine saves it, then fences the node again")
    void unsavedDecisionIsNotAnOlderResult() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        world.node("worker-2");
        NodeFenceRemediationTemplate template = template(RemediationWorld.farParameters(bmc), "5s");
        String first = createAsNodeHealthCheck(template);
        await("the first remediation succeeded", () -> world.has(first, RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully"));
        await("the Node restored", () -> client.nodes().withName(NODE).get() != null
                && RemediationWorld.offThenOn(bmc));
        world.ready(NODE);
        await("the first flow settled and released", () -> world.record(NODE)
                .filter(r -> r.isSettled() && r.released()).isPresent());
        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(first).delete();
        await("the first remediation gone", () -> world.get(first) == null);

        world.saves.set(false);
        String second = createAsNodeHealthCheck(template);
        await("waiting for the save", () -> world.condition(second, RemediationConditions.PROCESSING)
                .filter(c -> c.getMessage().contains("is not saved yet")).isPresent());
        world.completedPasses(3);

        assertThat(world.has(second, RemediationConditions.SUCCEEDED, "Unknown", "RemediationStarted"))
                .as("the older, settled record is not this remediation's result").isTrue();
        assertThat(world.has(second, RemediationConditions.PROCESSING, "True", "RemediationStarted")).isTrue();
        world.saves.set(true);
        await("the second remediation succeeded", () -> world.has(second, RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully"));
        assertThat(bmc.powerTarget().history().stream().filter(PowerState.OFF::equals)).as("fenced again").hasSize(2);
    }

    /** Whether the flow of {@code node} is FINAL; if not, the kubelet reports the node Ready again (as it would). */
    private boolean recovered(String node) {
        if (world.record(node).filter(r -> r.state() == FenceState.FINAL).isPresent()) {
            return true;
        }
        world.ready(node);
        return false;
    }

    /** After the failover: powered on, Node restored and uncordoned, flow FINAL; deleting drops the finalizer. */
    private void recoveredThenDeleted(String name, SimulatedBmc bmc) throws InterruptedException {
        await("powered on again", () -> RemediationWorld.offThenOn(bmc));
        await("the Node restored", () -> client.nodes().withName(NODE).get() != null);
        await("the flow finished", () -> recovered(NODE));
        assertThat(world.cordoned(NODE)).isFalse();
        assertThat(bmc.powerTarget().history().stream().filter(PowerState.OFF::equals)).hasSize(1);
        assertThat(world.get(name).getMetadata().getFinalizers()).containsExactly(RemediationController.FINALIZER);
        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(name).delete();
        await("the finalizer dropped and the remediation gone", () -> world.get(name) == null);
    }

    @Test
    @DisplayName("a remediation for a node that does not exist ends with RemediationFinishedNodeNotFound")
    void nodeNotFound() throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node("worker-2");
        NodeFenceRemediation cr = new NodeFenceRemediation();
        cr.getMetadata().setName("no-such-node");
        cr.getMetadata().setNamespace(NAMESPACE);
        cr.getSpec().setAgent("fence_ipmilan");
        cr.getSpec().setSharedParameters(RemediationWorld.farParameters(bmc));
        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(cr).create();

        await("RemediationFinishedNodeNotFound", () -> world.has("no-such-node", RemediationConditions.SUCCEEDED,
                "False", "RemediationFinishedNodeNotFound"));
        assertThat(world.has("no-such-node", RemediationConditions.PROCESSING, "False",
                "RemediationFinishedNodeNotFound")).isTrue();
        assertThat(world.record("no-such-node")).isEmpty();
    }

    /** The template as an admin writes it: multiple-templates support announced to NodeHealthCheck. */
    private NodeFenceRemediationTemplate template(Map<String, String> parameters) {
        return template(parameters, null);
    }

    /** The template with the agent's {@code timeout} (the default when null). */
    private NodeFenceRemediationTemplate template(Map<String, String> parameters, String timeout) {
        NodeFenceRemediationTemplate template = new NodeFenceRemediationTemplate();
        template.getMetadata().setName(TEMPLATE);
        template.getMetadata().setNamespace(NAMESPACE);
        template.getMetadata().setAnnotations(Map.of(NodeFenceRemediationTemplate.MULTIPLE_TEMPLATES, "true"));
        template.getSpec().getTemplate().getSpec().setAgent("fence_ipmilan");
        template.getSpec().getTemplate().getSpec().setSharedParameters(parameters);
        template.getSpec().getTemplate().getSpec().setTimeout(timeout);
        return client.resources(NodeFenceRemediationTemplate.class).inNamespace(NAMESPACE).resource(template)
                .create();
    }

    /**
     * What NodeHealthCheck does with a template that supports multiple templates: same apiVersion and namespace, kind
     * without Template, spec from spec.template.spec, generateName node-, the node-name and template-name
     * annotations, its part-of label, and a non-controller owner reference to the NodeHealthCheck.
     */
    private String createAsNodeHealthCheck(NodeFenceRemediationTemplate template) {
        NodeFenceRemediation cr = new NodeFenceRemediation();
        assertThat(cr.getApiVersion()).isEqualTo(template.getApiVersion());
        assertThat(template.getKind()).isEqualTo(cr.getKind() + "Template");
        cr.getMetadata().setGenerateName(NODE + "-");
        cr.getMetadata().setNamespace(template.getMetadata().getNamespace());
        cr.getMetadata().setAnnotations(new java.util.HashMap<>(Map.of("remediation.medik8s.io/node-name", NODE,
                "remediation.medik8s.io/template-name", template.getMetadata().getName())));
        cr.getMetadata().setLabels(Map.of("app.kubernetes.io/part-of", "node-healthcheck-controller"));
        cr.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
                .withApiVersion("remediation.medik8s.io/v1alpha1").withKind("NodeHealthCheck").withName("workers")
                .withUid("nhc-uid-1").withController(false).build()));
        cr.setSpec(template.getSpec().getTemplate().getSpec());
        return client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(cr).create()
                .getMetadata().getName();
    }

    /** Every status the remediations go through, as type=status/reason lists, in order. */
    private List<List<String>> watchConditions() {
        List<List<String>> seen = new CopyOnWriteArrayList<>();
        Watch watch = client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, NodeFenceRemediation resource) {
                if (resource.getStatus() != null && !resource.getStatus().getConditions().isEmpty()) {
                    List<String> now = resource.getStatus().getConditions().stream()
                            .map(c -> c.getType() + "=" + c.getStatus() + "/" + c.getReason()).toList();
                    if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(now)) {
                        seen.add(now);
                    }
                }
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
        closeLater.add(watch);
        return seen;
    }

    private final List<Watch> closeLater = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeWatches() {
        closeLater.forEach(Watch::close);
    }

    private Instant transition(String name, String type) {
        return Instant.parse(world.condition(name, type).map(Condition::getLastTransitionTime).orElseThrow());
    }

    private List<String> reasons(String name) {
        return world.events(name).stream().map(Event::getReason).toList();
    }
}
