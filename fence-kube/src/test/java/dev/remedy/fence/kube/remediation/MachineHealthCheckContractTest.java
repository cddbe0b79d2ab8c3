package dev.remedy.fence.kube.remediation;

import static dev.remedy.fence.kube.remediation.RemediationWorld.NAMESPACE;
import static dev.remedy.fence.kube.remediation.RemediationWorld.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.kube.remediation.internal.MachineConditions;
import dev.remedy.fence.kube.remediation.internal.RemediationConditions;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Cluster API MachineHealthCheck contract: a remediation named like the Machine, owned by it, cloned from a
 * template; its node from the Machine's {@code status.nodeRef}; the Machine's {@code ExternallyRemediated} and, when
 * remediation cannot succeed, {@code OwnerRemediated=False/WaitingForRemediation} written in both the v1beta2 and
 * the v1beta1 places, for Machines of either version, other conditions kept.
 */
@DisplayName("remedy as a MachineHealthCheck external remediator")
@EnableKubernetesMockClient(crud = true)
class MachineHealthCheckContractTest {

    private static final String NODE = "c1-md-0-worker-7";
    private static final String MACHINE = "c1-md-0-7xk2p";

    KubernetesClient client;
    private RemediationWorld world;
    private Watch watch;

    @AfterEach
    void tearDown() {
        if (watch != null) {
            watch.close();
        }
        if (world != null) {
            world.close();
        }
    }

    @ParameterizedTest(name = "Machine {0}")
    @ValueSource(strings = {"v1beta2", "v1beta1"})
    @DisplayName("the node of the Machine is fenced; ExternallyRemediated keeps Cluster API's only reason "
            + "WaitingForRemediation, its message saying fencing, then fenced and released, in both places, and the "
            + "Machine's other conditions stay")
    void fencesTheMachinesNode(String version) throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        world.node("c1-md-0-worker-8");
        createMachine(version, Optional.of(NODE));
        List<String> externally = watchMachine(version);
        String fencing = "remedy is fencing node " + NODE;
        String fenced = "remedy fenced node " + NODE + " and released its workloads; it powers the machine on again";

        createAsMachineHealthCheck(version, bmc, RemediationWorld.PASSWORD);

        await("Succeeded=True", () -> world.has(MACHINE, RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully"));
        assertThat(bmc.powerTarget().history()).contains(PowerState.OFF);
        await("the Machine says fenced", () -> condition(version, true, "ExternallyRemediated")
                .filter(c -> fenced.equals(c.get("message"))).isPresent());
        Map<String, Object> modern = condition(version, true, "ExternallyRemediated").orElseThrow();
        Map<String, Object> legacy = condition(version, false, "ExternallyRemediated").orElseThrow();
        assertThat(modern).containsEntry("status", "False").containsEntry("reason", "WaitingForRemediation")
                .doesNotContainKey("severity").containsKey("lastTransitionTime");
        assertThat(legacy).containsEntry("status", "False").containsEntry("reason", "WaitingForRemediation")
                .containsEntry("message", fenced).containsEntry("severity", "Info");
        assertThat(condition(version, true, "Ready")).as("a condition remedy does not own is kept")
                .hasValueSatisfying(c -> assertThat(c).containsEntry("reason", "NodeNotReady"));
        assertThat(condition(version, false, "Ready")).hasValueSatisfying(c -> assertThat(c)
                .containsEntry("severity", "Warning"));
        assertThat(condition(version, true, "OwnerRemediated")).as("no replacement asked for").isEmpty();
        await("the Machine's history seen", () -> externally.contains("WaitingForRemediation: " + fenced));
        assertThat(externally).containsSubsequence("WaitingForRemediation: null", "WaitingForRemediation: " + fencing,
                "WaitingForRemediation: " + fenced);
        assertThat(externally).allMatch(seen -> seen.startsWith("WaitingForRemediation: "));
    }

    @ParameterizedTest(name = "Machine {0}")
    @ValueSource(strings = {"v1beta2", "v1beta1"})
    @DisplayName("a fence that fails for good ends the remediation with FenceAgentFailed and asks the MachineSet to "
            + "replace the Machine: OwnerRemediated=False/WaitingForRemediation in both places")
    void failedFenceGivesUpToTheOwner(String version) throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        world.node("c1-md-0-worker-8");
        createMachine(version, Optional.of(NODE));

        createAsMachineHealthCheck(version, bmc, "not-the-password");

        await("Succeeded=False", () -> world.has(MACHINE, RemediationConditions.SUCCEEDED, "False",
                "FenceAgentFailed"));
        await("OwnerRemediated=False", () -> condition(version, true, "OwnerRemediated").isPresent());
        assertThat(condition(version, true, "OwnerRemediated").orElseThrow())
                .containsEntry("status", "False").containsEntry("reason", "WaitingForRemediation")
                .doesNotContainKey("severity");
        assertThat(condition(version, false, "OwnerRemediated").orElseThrow())
                .containsEntry("status", "False").containsEntry("reason", "WaitingForRemediation")
                .containsEntry("severity", "Warning");
        String failed = world.condition(MACHINE, RemediationConditions.SUCCEEDED).orElseThrow().getMessage();
        assertThat(condition(version, true, "OwnerRemediated").orElseThrow()).containsEntry("message", failed);
        assertThat(condition(version, true, "ExternallyRemediated").orElseThrow())
                .containsEntry("status", "False").containsEntry("reason", "WaitingForRemediation")
                .containsEntry("message", "remedy gave up: " + failed);
        assertThat(bmc.powerTarget().history()).doesNotContain(PowerState.OFF);
        assertThat(world.condition(MACHINE, RemediationConditions.SUCCEEDED).orElseThrow().getMessage())
                .doesNotContain("not-the-password");
    }

    /**
     * A give-up write can be lost: the controller writes the Machine's status from a copy read at the start of its pass,
     * and a real API server answers 409 when someone changed the Machine since (then {@code Machines} re-reads and
     * tries again, a bounded number of times). Mock gap: the CRUD mock accepts a stale {@code updateStatus()} instead
     * of answering 409, so this test plays the lost write as what it leaves behind: another writer's status without
     * {@code OwnerRemediated}. The ended remediation must assert the give-up again at a later pass, and write nothing
     * while it is in place.
     */
    @ParameterizedTest(name = "Machine {0}")
    @ValueSource(strings = {"v1beta2", "v1beta1"})
    @DisplayName("a lost give-up (another writer's status without OwnerRemediated) is written again by a later pass of "
            + "the ended remediation, and nothing is written while it is in place")
    void lostGiveUpIsWrittenAgain(String version) throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        world.node("c1-md-0-worker-8");
        createMachine(version, Optional.of(NODE));
        createAsMachineHealthCheck(version, bmc, "not-the-password");
        await("OwnerRemediated=False", () -> condition(version, true, "OwnerRemediated").isPresent());
        String given = machines(version).withName(MACHINE).get().getMetadata().getResourceVersion();

        GenericKubernetesResource machine = machines(version).withName(MACHINE).get();
        Map<String, Object> status = withoutOwnerRemediated(machine);
        machine.setAdditionalProperty("status", status);
        GenericKubernetesResource lost = machines(version).resource(machine).updateStatus();
        // the status as written: a later pass may write the give-up again before a read could see it gone
        assertThat(conditions(lost, true)).as("the give-up is gone")
                .noneMatch(c -> "OwnerRemediated".equals(c.get("type")));

        await("OwnerRemediated written again", () -> condition(version, true, "OwnerRemediated").isPresent()
                && condition(version, false, "OwnerRemediated").isPresent());
        assertThat(condition(version, true, "OwnerRemediated").orElseThrow()).containsEntry("status", "False")
                .containsEntry("reason", "WaitingForRemediation");
        assertThat(condition(version, false, "OwnerRemediated").orElseThrow()).containsEntry("severity", "Warning");
        String rewritten = machines(version).withName(MACHINE).get().getMetadata().getResourceVersion();
        assertThat(rewritten).isNotEqualTo(given);
        world.completedPasses(3);
        assertThat(machines(version).withName(MACHINE).get().getMetadata().getResourceVersion())
                .as("nothing written while the give-up is in place").isEqualTo(rewritten);
    }

    @ParameterizedTest(name = "Machine {0}")
    @ValueSource(strings = {"v1beta2"})
    @DisplayName("a Machine without a Node cannot be fenced: RemediationFinishedNodeNotFound, and the MachineSet is "
            + "asked to replace it")
    void machineWithoutNode(String version) throws Exception {
        world = new RemediationWorld(client, Duration.ofMillis(100), RemediationWorld.permissive());
        SimulatedBmc bmc = world.node(NODE);
        createMachine(version, Optional.empty());

        createAsMachineHealthCheck(version, bmc, RemediationWorld.PASSWORD);

        await("RemediationFinishedNodeNotFound", () -> world.has(MACHINE, RemediationConditions.SUCCEEDED, "False",
                "RemediationFinishedNodeNotFound"));
        await("OwnerRemediated=False", () -> condition(version, true, "OwnerRemediated")
                .filter(c -> "WaitingForRemediation".equals(c.get("reason"))).isPresent());
        assertThat(world.record(NODE)).isEmpty();
    }

    /** A Machine as Cluster API keeps it, with the conditions MachineHealthCheck wrote when it found it unhealthy. */
    private void createMachine(String version, Optional<String> node) {
        GenericKubernetesResource machine = new GenericKubernetesResource();
        machine.setApiVersion("cluster.x-k8s.io/" + version);
        machine.setKind("Machine");
        machine.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
        machine.getMetadata().setName(MACHINE);
        machine.getMetadata().setNamespace(NAMESPACE);
        machine.getMetadata().setLabels(Map.of("cluster.x-k8s.io/cluster-name", "c1"));
        machine.setAdditionalProperty("spec", Map.of("clusterName", "c1"));
        GenericKubernetesResource created = machines(version).resource(machine).create();
        Map<String, Object> ready = condition("Ready", "False", "NodeNotReady");
        Map<String, Object> waiting = condition("ExternallyRemediated", "False", "WaitingForRemediation");
        Map<String, Object> legacyReady = new LinkedHashMap<>(ready);
        legacyReady.put("severity", "Warning");
        Map<String, Object> status = new LinkedHashMap<>();
        node.ifPresent(n -> status.put("nodeRef", Map.of("name", n)));
        if (version.equals("v1beta2")) {
            status.put("conditions", List.of(ready, waiting));
            status.put("deprecated", Map.of("v1beta1", Map.of("conditions", List.of(legacyReady))));
        } else {
            status.put("conditions", List.of(legacyReady));
            status.put("v1beta2", Map.of("conditions", List.of(ready, waiting)));
        }
        created.setAdditionalProperty("status", status);
        machines(version).resource(created).updateStatus();
    }

    /** The remediation as MachineHealthCheck creates it from a template; the BMC password in a per-node Secret. */
    private void createAsMachineHealthCheck(String version, SimulatedBmc bmc, String password) {
        client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata()
                .withName("bmc-" + NODE).endMetadata().withData(Map.of("--password", Base64.getEncoder()
                        .encodeToString(password.getBytes(StandardCharsets.UTF_8)))).build()).create();
        GenericKubernetesResource machine = machines(version).withName(MACHINE).get();
        NodeFenceRemediation cr = new NodeFenceRemediation();
        cr.getMetadata().setName(MACHINE);
        cr.getMetadata().setNamespace(NAMESPACE);
        cr.getMetadata().setAnnotations(Map.of("cluster.x-k8s.io/cloned-from-name", "remedy-fence",
                "cluster.x-k8s.io/cloned-from-groupkind", "NodeFenceRemediationTemplate.remedy.dev"));
        cr.getMetadata().setLabels(Map.of("cluster.x-k8s.io/cluster-name", "c1"));
        cr.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion(machine.getApiVersion())
                .withKind("Machine").withName(MACHINE).withUid(machine.getMetadata().getUid()).build()));
        Map<String, String> shared = new LinkedHashMap<>(RemediationWorld.farParameters(bmc));
        shared.remove("--password");
        cr.getSpec().setAgent("fence_ipmilan");
        cr.getSpec().setSharedParameters(shared);
        cr.getSpec().setNodeSecretNames(Map.of(NODE, "bmc-" + NODE));
        cr.getSpec().setRetryCount(1);
        cr.getSpec().setTimeout("10s");
        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(cr).create();
    }

    /** The Machine's status without OwnerRemediated in either place, as a writer that never saw it would leave it. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutOwnerRemediated(GenericKubernetesResource machine) {
        Map<String, Object> status = new LinkedHashMap<>((Map<String, Object>) machine.getAdditionalProperties()
                .get("status"));
        boolean v1beta2 = machine.getApiVersion().endsWith("/v1beta2");
        Map<String, Object> modern = v1beta2 ? status : new LinkedHashMap<>((Map<String, Object>) status.get("v1beta2"));
        Map<String, Object> legacy = status;
        if (v1beta2) {
            Map<String, Object> deprecated = new LinkedHashMap<>((Map<String, Object>) status.get("deprecated"));
            legacy = new LinkedHashMap<>((Map<String, Object>) deprecated.get("v1beta1"));
            deprecated.put("v1beta1", legacy);
            status.put("deprecated", deprecated);
        } else {
            status.put("v1beta2", modern);
        }
        for (Map<String, Object> holder : List.of(modern, legacy)) {
            holder.put("conditions", ((List<Map<String, Object>>) holder.get("conditions")).stream()
                    .filter(c -> !"OwnerRemediated".equals(c.get("type"))).toList());
        }
        return status;
    }

    private static Map<String, Object> condition(String type, String status, String reason) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", status);
        c.put("reason", reason);
        c.put("lastTransitionTime", "2026-11-26T00:00:00Z");
        return c;
    }

    /** ExternallyRemediated's "reason: message" in the Machine's v1beta2-shaped place, as a watch sees them change. */
    private List<String> watchMachine(String version) {
        List<String> reasons = new CopyOnWriteArrayList<>();
        watch = machines(version).withName(MACHINE).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource resource) {
                conditions(resource, true).stream().filter(c -> "ExternallyRemediated".equals(c.get("type")))
                        .map(c -> c.get("reason") + ": " + c.get("message")).findFirst().ifPresent(reason -> {
                            if (reasons.isEmpty() || !reasons.get(reasons.size() - 1).equals(reason)) {
                                reasons.add(reason);
                            }
                        });
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
        GenericKubernetesResource now = machines(version).withName(MACHINE).get();
        conditions(now, true).stream().filter(c -> "ExternallyRemediated".equals(c.get("type")))
                .map(c -> c.get("reason") + ": " + c.get("message")).findFirst().ifPresent(r -> reasons.add(0, r));
        return reasons;
    }

    private Optional<Map<String, Object>> condition(String version, boolean v1beta2Shape, String type) {
        GenericKubernetesResource machine = machines(version).withName(MACHINE).get();
        return conditions(machine, v1beta2Shape).stream().filter(c -> type.equals(c.get("type"))).findFirst();
    }

    /** The conditions of the v1beta2 place ({@code modern}) or of the v1beta1 place, wherever the version keeps it. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(GenericKubernetesResource machine, boolean modern) {
        boolean v1beta2 = machine.getApiVersion().endsWith("/v1beta2");
        Map<String, Object> status = (Map<String, Object>) machine.getAdditionalProperties().get("status");
        if (status == null) {
            return List.of();
        }
        Map<String, Object> holder = status;
        if (modern && !v1beta2) {
            holder = (Map<String, Object>) status.get("v1beta2");
        } else if (!modern && v1beta2) {
            Map<String, Object> deprecated = (Map<String, Object>) status.get("deprecated");
            holder = deprecated == null ? null : (Map<String, Object>) deprecated.get("v1beta1");
        }
        Object list = holder == null ? null : holder.get("conditions");
        return list instanceof List<?> l ? new ArrayList<>((List<Map<String, Object>>) l) : List.of();
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> machines(String version) {
        return client.genericKubernetesResources(MachineConditions.context("cluster.x-k8s.io/" + version))
                .inNamespace(NAMESPACE);
    }
}
