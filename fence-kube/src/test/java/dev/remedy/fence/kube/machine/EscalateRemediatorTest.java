package dev.remedy.fence.kube.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.rules.EscalateRemediation;
import dev.remedy.core.rules.RemediationAction;
import dev.remedy.core.rules.RemediationPhase;
import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import dev.remedy.fence.kube.machine.EscalateRemediator.Result;
import dev.remedy.fence.kube.machine.internal.Metal3Objects;
import dev.remedy.fence.kube.remediation.NodeFenceRemediation;
import dev.remedy.fence.kube.testing.MinimalCrds;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The escalate strategy on real objects: a Metal3Remediation-like remediation object (with its CRD and status
 * subresource) owned by a Machine whose BareMetalHost a tiny host controller powers, with fake time.
 */
@EnableKubernetesMockClient(crud = true)
class EscalateRemediatorTest {

    static final ResourceDefinitionContext REMEDIATIONS = new ResourceDefinitionContext.Builder()
            .withGroup("infrastructure.cluster.x-k8s.io").withVersion("v1beta1").withKind("Metal3Remediation")
            .withPlural("metal3remediations").withNamespaced(true).build();

    KubernetesClient client;
    MachineWorld world;
    FakeTimeSource time = new FakeTimeSource();
    EscalateRemediator remediator;

    @BeforeEach
    void setUp() {
        world = new MachineWorld(client, "v1beta1");
        MinimalCrds.install(client, REMEDIATIONS);
        remediator = EscalateRemediator.builder(client).time(time).build();
    }

    @Test
    @DisplayName("a power cycle after which the node is ready succeeds (nested strategy, owner reference)")
    void powerCycleSucceeds() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        GenericKubernetesResource r = remediation("r", "m",
                Map.of("strategy", Map.of("type", "escalate", "deleteAfterRetries", 1)));

        assertThat(remediator.reconcile(r).actions()).containsExactly(RemediationAction.ADD_REBOOT_ANNOTATION);
        assertThat(phase("r")).isEqualTo("PoweringOff");
        assertThat(condition("r", "Processing")).isEqualTo("True");
        assertThat(condition("r", "Succeeded")).isEqualTo("Unknown");
        assertThat(condition("r", "PermanentNodeDeletionExpected")).isEqualTo("False");
        assertThat(Metal3Objects.annotation(world.hostObject("m"), rebootKey("r"))).isEqualTo("{\"mode\":\"hard\"}");

        powerAndNode("m", false);
        assertThat(remediator.reconcile(r).actions()).containsExactly(RemediationAction.REMOVE_REBOOT_ANNOTATION);
        assertThat(phase("r")).isEqualTo("WaitingForNode");
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(rebootKey("r"));

        powerAndNode("m", true);
        Result done = remediator.reconcile(r);
        assertThat(done.phase()).isEqualTo(RemediationPhase.SUCCEEDED);
        assertThat(condition("r", "Succeeded")).isEqualTo("True");
        assertThat(condition("r", "Processing")).isEqualTo("False");
        assertThat(world.machine("m")).isNotNull();
    }

    @Test
    @DisplayName("the host of a Machine is found through the Metal3Machine of its spec.infrastructureRef (CAPM3)")
    void hostThroughMetal3Machine() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        world.hostThroughInfrastructure("m", true);
        GenericKubernetesResource r = remediation("r", "m", Map.of("strategy", "escalate"));

        assertThat(remediator.reconcile(r).actions()).containsExactly(RemediationAction.ADD_REBOOT_ANNOTATION);
        assertThat(Metal3Objects.annotation(world.hostObject("m"), rebootKey("r"))).isEqualTo("{\"mode\":\"hard\"}");
        powerAndNode("m", false);
        assertThat(remediator.reconcile(r).actions()).containsExactly(RemediationAction.REMOVE_REBOOT_ANNOTATION);
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(rebootKey("r"));
    }

    @Test
    @DisplayName("a node not ready within powerOnTimeout gets another power cycle (flat strategy, same name)")
    void retriesAfterPowerOnTimeout() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        GenericKubernetesResource r = remediation("m", null, Map.of("strategy", "escalate", "deleteAfterRetries", 1,
                "powerOnTimeoutSeconds", 60, "powerOffTimeoutSeconds", 30));
        cycleWithoutReadyNode(r, "m", "m");

        time.advance(Duration.ofSeconds(59));
        assertThat(remediator.reconcile(r).phase()).as("still within powerOnTimeout")
                .isEqualTo(RemediationPhase.WAITING_FOR_NODE);
        time.advance(Duration.ofSeconds(2));
        Result retry = remediator.reconcile(r);
        assertThat(retry.phase()).isEqualTo(RemediationPhase.POWERING_OFF);
        assertThat(retry.actions()).containsExactly(RemediationAction.ADD_REBOOT_ANNOTATION);
        assertThat(status("m").get("retryCount")).isEqualTo(1);
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).containsKey(rebootKey("m"));
    }

    @Test
    @DisplayName("retries used up: PermanentNodeDeletionExpected is persisted before the Machine is deleted")
    void deletesMachineAfterRetries() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        CrashingClient recorded = new CrashingClient(client);
        EscalateRemediator watched = EscalateRemediator.builder(recorded.client()).time(time).build();
        GenericKubernetesResource r = remediation("r", "m", Map.of("strategy", "escalate", "deleteAfterRetries", 0,
                "powerOnTimeoutSeconds", 60));
        cycleWithoutReadyNode(r, "r", "m");
        time.advance(Duration.ofSeconds(60));

        Result deleting = watched.reconcile(r);

        assertThat(deleting.phase()).isEqualTo(RemediationPhase.DELETING);
        assertThat(deleting.actions()).containsExactly(RemediationAction.DELETE_MACHINE);
        assertThat(condition("r", "PermanentNodeDeletionExpected")).isEqualTo("True");
        assertThat(world.machine("m")).isNull();
        List<String> sent = recorded.sent();
        int status = sent.indexOf("PUT /apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/capi/metal3remediations/r/status");
        int delete = sent.indexOf("DELETE /apis/cluster.x-k8s.io/v1beta1/namespaces/capi/machines/m");
        assertThat(status).as("status written").isNotNegative();
        assertThat(delete).as("the status write comes first: %s", sent).isGreaterThan(status);

        client.nodes().withName(MachineWorld.node("m")).delete(); // what Cluster API does with a deleted Machine
        Result deleted = remediator.reconcile(r);
        assertThat(deleted.phase()).isEqualTo(RemediationPhase.DELETED);
        assertThat(condition("r", "Succeeded")).isEqualTo("True");
    }

    @Test
    @DisplayName("a host that never powers off fails the remediation at powerOffTimeout: released, nothing deleted")
    void powerOffTimeoutFails() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        new Metal3Objects(client, "v1beta1").annotate(BareMetalHost.RESOURCE, world.hostObject("m"),
                BareMetalHost.PAUSED, ""); // the host controller does not act on it
        GenericKubernetesResource r = remediation("r", "m", Map.of("strategy", Map.of("type", "escalate",
                "powerOffTimeoutSeconds", 30)));
        remediator.reconcile(r);
        world.sync("m");
        time.advance(Duration.ofSeconds(30));

        Result failed = remediator.reconcile(r);

        assertThat(failed.phase()).isEqualTo(RemediationPhase.FAILED);
        assertThat(condition("r", "Succeeded")).isEqualTo("False");
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(rebootKey("r"));
        assertThat(world.machine("m")).isNotNull();
        assertThat(world.nodeObject("m")).isNotNull();
    }

    @Test
    @DisplayName("the health checker's timed-out marker cancels the remediation and releases the host")
    void timedOutMarkerCancels() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        GenericKubernetesResource r = remediation("r", "m", Map.of("strategy", Map.of("type", "escalate")));
        remediator.reconcile(r);
        world.sync("m");
        assertThat(world.state("m").poweredOn()).isFalse();
        client.genericKubernetesResources(REMEDIATIONS).inNamespace(MachineWorld.NAMESPACE).withName("r").edit(o -> {
            o.getMetadata().getAnnotations().put(EscalateRemediation.TIMED_OUT_ANNOTATION, "2026-01-01T00:05:00Z");
            return o;
        });

        Result cancelled = remediator.reconcile(r);

        assertThat(cancelled.phase()).isEqualTo(RemediationPhase.CANCELLED);
        assertThat(condition("r", "Succeeded")).isEqualTo("False");
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(rebootKey("r"));
        world.sync("m");
        assertThat(world.state("m").poweredOn()).as("the host powers on again").isTrue();
    }

    @Test
    @DisplayName("a crash between the status write and the action write: the next reconcile re-issues the action")
    void crashBetweenStatusAndAction() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        GenericKubernetesResource r = remediation("r", "m", Map.of("strategy", Map.of("type", "escalate")));
        CrashingClient crashing = new CrashingClient(client);
        crashing.crashBefore(req -> req.startsWith("PATCH ") && req.contains("/baremetalhosts/"));

        assertThatThrownBy(() -> EscalateRemediator.builder(crashing.client()).time(time).build().reconcile(r))
                .isInstanceOf(CrashingClient.Crash.class);
        assertThat(phase("r")).as("the status was persisted").isEqualTo("PoweringOff");
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(rebootKey("r"));

        Result resumed = EscalateRemediator.builder(client).time(time).build().reconcile(r);
        assertThat(resumed.statusWritten()).isFalse();
        assertThat(resumed.actions()).containsExactly(RemediationAction.ADD_REBOOT_ANNOTATION);
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).containsKey(rebootKey("r"));
    }

    @Test
    @DisplayName("a Machine deleted by someone else halfway: the host is found by its annotation and released")
    void machineGoneReleasesHost() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        GenericKubernetesResource r = remediation("r", "m", Map.of("strategy", Map.of("type", "escalate")));
        remediator.reconcile(r);
        client.genericKubernetesResources(world.machines).inNamespace(MachineWorld.NAMESPACE).withName("m").delete();

        Result waiting = remediator.reconcile(r);

        assertThat(waiting.skipped()).hasValueSatisfying(s -> assertThat(s).contains("no Machine capi/m"));
        assertThat(waiting.actions()).containsExactly(RemediationAction.REMOVE_REBOOT_ANNOTATION);
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(rebootKey("r"));
    }

    @Test
    @DisplayName("a remediation object being deleted releases its host")
    void deletionReleasesHost() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        GenericKubernetesResource r = remediation("r", "m", Map.of("strategy", Map.of("type", "escalate")));
        String key = rebootKey("r");
        remediator.reconcile(r);
        client.genericKubernetesResources(REMEDIATIONS).inNamespace(MachineWorld.NAMESPACE).withName("r").edit(o -> {
            o.getMetadata().setFinalizers(List.of("example.com/keep"));
            return o;
        });
        client.genericKubernetesResources(REMEDIATIONS).inNamespace(MachineWorld.NAMESPACE).withName("r").delete();

        assertThat(remediator.reconcile(r).skipped()).contains("being deleted");
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(key);
    }

    @Test
    @DisplayName("watching a kind, the remediator runs every object with a strategy and leaves the others alone")
    void watchRunsObjectsWithAStrategy() throws Exception {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        world.create("n", MachineRemediationDriverTest.state("1010"));
        try (AutoCloseable watch = remediator.watch(REMEDIATIONS, Duration.ofSeconds(1))) {
            remediation("r", "m", Map.of("strategy", "escalate"));
            remediation("plain", "n", Map.of("agent", "ipmi"));
            String key = rebootKey("r");
            for (int i = 0; i < 200 && !world.hostObject("m").getMetadata().getAnnotations().containsKey(key); i++) {
                Thread.sleep(50);
            }
            assertThat(world.hostObject("m").getMetadata().getAnnotations()).containsKey(key);
            assertThat(phase("r")).isEqualTo("PoweringOff");
        }
        assertThat(status("plain")).as("no strategy: not this remediator's object").isNull();
        assertThat(world.hostObject("n").getMetadata().getAnnotations()).isNullOrEmpty();
    }

    @Test
    @DisplayName("watching a kind without remedy's finalizer, a deleted remediation object's host is released")
    void watchReleasesTheHostOfADeletedObject() throws Exception {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        try (AutoCloseable watch = remediator.watch(REMEDIATIONS, Duration.ofMinutes(10))) {
            remediation("r", "m", Map.of("strategy", "escalate"));
            String key = rebootKey("r");
            awaitHost("m", key, true);
            client.genericKubernetesResources(REMEDIATIONS).inNamespace(MachineWorld.NAMESPACE).withName("r").delete();

            awaitHost("m", key, false);
            assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(key);
        }
        world.sync("m");
        assertThat(world.state("m").poweredOn()).as("the host powers on again").isTrue();
    }

    @Test
    @DisplayName("the sweep releases the hosts of remediation objects deleted unseen, and keeps those of live ones;"
            + " a watch sweeps when it starts")
    void sweepReleasesHostsOfDeletedObjects() throws Exception {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        world.create("n", MachineRemediationDriverTest.state("1010"));
        GenericKubernetesResource gone = remediation("gone", "m", Map.of("strategy", "escalate"));
        GenericKubernetesResource live = remediation("live", "n", Map.of("strategy", "escalate"));
        String goneKey = rebootKey("gone");
        String liveKey = rebootKey("live");
        remediator.reconcile(gone);
        remediator.reconcile(live);
        client.genericKubernetesResources(REMEDIATIONS).inNamespace(MachineWorld.NAMESPACE).withName("gone").delete();
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).as("nothing saw the deletion")
                .containsKey(goneKey);
        String nodeFenceKey = EscalateRemediator.rebootAnnotation(nodeFenceRemediation("nfr").getMetadata().getUid());
        new Metal3Objects(client, "v1beta1").annotate(BareMetalHost.RESOURCE, world.hostObject("m"), nodeFenceKey,
                "{\"mode\":\"hard\"}");

        assertThat(remediator.sweep()).isEqualTo(1);

        assertThat(world.hostObject("m").getMetadata().getAnnotations()).doesNotContainKey(goneKey)
                .as("a live NodeFenceRemediation's request, another kind").containsKey(nodeFenceKey);
        assertThat(world.hostObject("n").getMetadata().getAnnotations()).as("its object lives").containsKey(liveKey);
        assertThat(remediator.sweep()).as("nothing left to release").isZero();

        client.genericKubernetesResources(REMEDIATIONS).inNamespace(MachineWorld.NAMESPACE).withName("live").delete();
        EscalateRemediator restarted = EscalateRemediator.builder(client).time(time).build();
        try (AutoCloseable watch = restarted.watch(REMEDIATIONS, Duration.ofMinutes(10))) {
            awaitHost("n", liveKey, false);
            assertThat(world.hostObject("n").getMetadata().getAnnotations()).doesNotContainKey(liveKey);
        }
    }

    private GenericKubernetesResource nodeFenceRemediation(String name) {
        ResourceDefinitionContext kind = new ResourceDefinitionContext.Builder().withGroup(NodeFenceRemediation.GROUP)
                .withVersion(NodeFenceRemediation.VERSION).withKind(NodeFenceRemediation.KIND)
                .withPlural(NodeFenceRemediation.PLURAL).withNamespaced(true).build();
        MinimalCrds.install(client, kind);
        return client.genericKubernetesResources(kind).inNamespace(MachineWorld.NAMESPACE).resource(
                new GenericKubernetesResourceBuilder().withApiVersion(NodeFenceRemediation.GROUP + "/"
                        + NodeFenceRemediation.VERSION).withKind(NodeFenceRemediation.KIND).withNewMetadata()
                        .withNamespace(MachineWorld.NAMESPACE).withName(name).endMetadata().build()).create();
    }

    /** Waits, at most 10 s, until the host of {@code machine} carries {@code key} or not. */
    private void awaitHost(String machine, String key, boolean present) throws InterruptedException {
        for (int i = 0; i < 200 && Optional.ofNullable(world.hostObject(machine).getMetadata().getAnnotations())
                .map(a -> a.containsKey(key)).orElse(false) != present; i++) {
            Thread.sleep(50);
        }
    }

    @Test
    @DisplayName("an invalid strategy is reported, with nothing written")
    void invalidStrategy() {
        world.create("m", MachineRemediationDriverTest.state("1010"));
        GenericKubernetesResource r = remediation("r", "m", Map.of("strategy", "escalate", "deleteAfterRetries", -1));
        Result skipped = remediator.reconcile(r);
        assertThat(skipped.skipped()).hasValueSatisfying(s -> assertThat(s).contains("deleteAfterRetries"));
        assertThat(status("r")).isNull();
        assertThat(world.hostObject("m").getMetadata().getAnnotations()).isNullOrEmpty();
    }

    /** Runs one cycle whose node never gets ready: ADD, host off, REMOVE, host on, node not ready. */
    private void cycleWithoutReadyNode(GenericKubernetesResource r, String name, String machine) {
        assertThat(remediator.reconcile(r).actions()).containsExactly(RemediationAction.ADD_REBOOT_ANNOTATION);
        powerAndNode(machine, false);
        assertThat(remediator.reconcile(r).phase()).isEqualTo(RemediationPhase.WAITING_FOR_NODE);
        world.sync(machine);
        assertThat(world.state(machine).poweredOn()).isTrue();
        assertThat(phase(name)).isEqualTo("WaitingForNode");
    }

    /** The host controller moves the host; the Node's readiness follows its power. */
    private void powerAndNode(String machine, boolean ready) {
        world.sync(machine);
        client.nodes().withName(MachineWorld.node(machine)).editStatus(n -> {
            n.getStatus().setConditions(List.of(new NodeCondition(null, null, null, null, ready ? "True" : "False",
                    "Ready")));
            return n;
        });
    }

    private GenericKubernetesResource remediation(String name, String owner, Map<String, Object> spec) {
        GenericKubernetesResourceBuilder b = new GenericKubernetesResourceBuilder()
                .withApiVersion("infrastructure.cluster.x-k8s.io/v1beta1").withKind("Metal3Remediation")
                .withNewMetadata().withNamespace(MachineWorld.NAMESPACE).withName(name)
                .addToAnnotations("example.com/any", "x").endMetadata()
                .withAdditionalProperties(Map.of("spec", spec));
        if (owner != null) {
            b.editMetadata().withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("cluster.x-k8s.io/v1beta1")
                    .withKind("Machine").withName(owner).withUid(world.machine(owner).getMetadata().getUid()).build())
                    .endMetadata();
        }
        return client.genericKubernetesResources(REMEDIATIONS).inNamespace(MachineWorld.NAMESPACE).resource(b.build())
                .create();
    }

    private String rebootKey(String remediation) {
        return EscalateRemediator.rebootAnnotation(client.genericKubernetesResources(REMEDIATIONS)
                .inNamespace(MachineWorld.NAMESPACE).withName(remediation).get().getMetadata().getUid());
    }

    private Map<String, Object> status(String name) {
        return client.genericKubernetesResources(REMEDIATIONS).inNamespace(MachineWorld.NAMESPACE).withName(name).get()
                .get("status");
    }

    private String phase(String name) {
        return (String) status(name).get("phase");
    }

    @SuppressWarnings("unchecked")
    private String condition(String name, String type) {
        return ((List<Map<String, Object>>) status(name).get("conditions")).stream()
                .filter(c -> type.equals(c.get("type"))).map(c -> (String) c.get("status")).findFirst().orElse(null);
    }
}
