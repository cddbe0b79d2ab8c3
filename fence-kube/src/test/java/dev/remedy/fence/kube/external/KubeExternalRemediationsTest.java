package dev.remedy.fence.kube.external;

import static dev.remedy.fence.kube.external.ExternalFixtures.METAL3;
import static dev.remedy.fence.kube.external.ExternalFixtures.METAL3_API;
import static dev.remedy.fence.kube.external.ExternalFixtures.METAL3_TEMPLATE;
import static dev.remedy.fence.kube.external.ExternalFixtures.SNR;
import static dev.remedy.fence.kube.external.ExternalFixtures.SNR_API;
import static dev.remedy.fence.kube.external.ExternalFixtures.SNR_TEMPLATE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner.Cancellation;
import dev.remedy.core.policy.RemedyRunner.Progress;
import dev.remedy.core.rules.EscalateStrategy;
import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Remediation templates instantiated, followed and cancelled as NodeHealthCheck and MachineHealthCheck do, on
 * fabric8's mock API server in CRUD mode.
 *
 * <p>Mock server gaps: no CRDs are posted, so a remediator's status is written with a plain update (a real server
 * takes it on the status subresource); objects are deleted at once unless they hold a finalizer, so the tests that
 * look at an object during its deletion give it one, as remediators do.
 */
@EnableKubernetesMockClient(crud = true)
class KubeExternalRemediationsTest {

    private static final String REMEDY_NS = "remedy";
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final Remedy.External SNR_REMEDY = new Remedy.External("snr", TIMEOUT,
            new Remedy.External.TemplateRef(SNR_API, "SelfNodeRemediationTemplate", "snr-oos", Optional.of("medik8s")));
    private static final Map<String, Object> SNR_SPEC = Map.of("remediationStrategy", "OutOfServiceTaint");

    KubernetesClient client;

    private final FakeTimeSource time = new FakeTimeSource();
    private final List<KubeEvents.Note> events = new CopyOnWriteArrayList<>();

    /** A new instance each time it is called: what a restarted (or newly elected) operator has. */
    private KubeExternalRemediations remediations() {
        return KubeExternalRemediations.builder(client).namespace(REMEDY_NS).events(events::add).time(time).build();
    }

    private GenericKubernetesResource snrTemplate(Map<String, String> annotations) {
        return ExternalFixtures.addTemplate(client, SNR_TEMPLATE, "medik8s", "snr-oos", annotations, SNR_SPEC);
    }

    @Test
    @DisplayName("a template by reference, for a plain node: kind without Template, named like the node in the "
            + "template's namespace, NodeHealthCheck's annotations, remedy's label, no owner, the template's spec")
    void plainNode() {
        ExternalFixtures.addNode(client, "worker-1", Map.of(), Map.of());
        snrTemplate(Map.of());

        remediations().create("worker-1", SNR_REMEDY);

        GenericKubernetesResource cr = ExternalFixtures.get(client, SNR, "medik8s", "worker-1");
        assertThat(cr).isNotNull();
        assertThat(cr.getApiVersion()).isEqualTo(SNR_API);
        assertThat(cr.getKind()).isEqualTo("SelfNodeRemediation");
        assertThat(cr.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "remediation.medik8s.io/node-name", "worker-1",
                "remediation.medik8s.io/template-name", "snr-oos",
                "remedy.dev/remedy", "snr",
                "remedy.dev/node-name", "worker-1"));
        assertThat(cr.getMetadata().getLabels()).containsExactlyEntriesOf(Map.of(
                "app.kubernetes.io/managed-by", "remedy"));
        assertThat(cr.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(cr.getAdditionalProperties().get("spec")).isEqualTo(SNR_SPEC);
        assertThat(ExternalFixtures.list(client, SNR, "medik8s")).hasSize(1);
        assertThat(ExternalFixtures.annotations(client.nodes().withName("worker-1").get()))
                .containsEntry("remedy.dev/external-remedy", "snr")
                .containsEntry("remedy.dev/external-remediation", "medik8s/worker-1")
                .containsEntry("remedy.dev/external-remediation-started", FakeTimeSource.DEFAULT_START.toString());
        assertThat(events).extracting(KubeEvents.Note::reason).containsExactly("ExternalRemediationCreated");
    }

    @Test
    @DisplayName("a reference without namespace finds the template in remedy's namespace; a control-plane node's "
            + "object carries remediation.medik8s.io/isControlPlaneNode")
    void controlPlaneAndDefaultNamespace() {
        ExternalFixtures.addNode(client, "cp-1", Map.of("node-role.kubernetes.io/control-plane", ""), Map.of());
        ExternalFixtures.addTemplate(client, SNR_TEMPLATE, REMEDY_NS, "snr-oos", Map.of(), SNR_SPEC);
        Remedy.External remedy = new Remedy.External("snr", TIMEOUT,
                new Remedy.External.TemplateRef(SNR_API, "SelfNodeRemediationTemplate", "snr-oos", Optional.empty()));

        remediations().create("cp-1", remedy);

        GenericKubernetesResource cr = ExternalFixtures.get(client, SNR, REMEDY_NS, "cp-1");
        assertThat(cr.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "app.kubernetes.io/managed-by", "remedy", "remediation.medik8s.io/isControlPlaneNode", ""));
    }

    @Test
    @DisplayName("a node of a Cluster API Machine: the object has the Machine's name and namespace, one owner "
            + "reference to it, the cloned-from annotations, the cluster-name label, and the design's flat escalate spec")
    void machineNode() {
        ExternalFixtures.addNode(client, "node-m1", Map.of(), Map.of("cluster.x-k8s.io/machine", "prod-md-0-abc",
                "cluster.x-k8s.io/cluster-namespace", "capi-prod", "cluster.x-k8s.io/cluster-name", "prod"));
        GenericKubernetesResource machine = ExternalFixtures.addMachine(client, "capi-prod", "prod-md-0-abc", "prod");
        Map<String, Object> flat = new LinkedHashMap<>();
        flat.put("strategy", "escalate");
        flat.put("deleteAfterRetries", 10);
        flat.put("powerOnTimeoutSeconds", 600);
        flat.put("powerOffTimeoutSeconds", 120);
        ExternalFixtures.addTemplate(client, METAL3_TEMPLATE, "capi-prod", "m3-group",
                Map.of("remediation.medik8s.io/multiple-templates-support", "true"), flat);
        Remedy.External remedy = new Remedy.External("metal3", TIMEOUT, new Remedy.External.TemplateRef(METAL3_API,
                "Metal3RemediationTemplate", "m3-group", Optional.of("capi-prod")));

        remediations().create("node-m1", remedy);

        GenericKubernetesResource cr = ExternalFixtures.get(client, METAL3, "capi-prod", "prod-md-0-abc");
        assertThat(cr).as("named like the Machine, even with the multiple-templates annotation").isNotNull();
        assertThat(cr.getApiVersion()).isEqualTo(METAL3_API);
        assertThat(cr.getKind()).isEqualTo("Metal3Remediation");
        assertThat(cr.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getApiVersion()).isEqualTo("cluster.x-k8s.io/v1beta1");
            assertThat(owner.getKind()).isEqualTo("Machine");
            assertThat(owner.getName()).isEqualTo("prod-md-0-abc");
            assertThat(owner.getUid()).isEqualTo(machine.getMetadata().getUid()).isNotBlank();
            assertThat(owner.getController()).as("MachineHealthCheck leaves controller unset").isNull();
        });
        assertThat(cr.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cluster.x-k8s.io/cloned-from-name", "m3-group",
                "cluster.x-k8s.io/cloned-from-groupkind", "Metal3RemediationTemplate.infrastructure.cluster.x-k8s.io",
                "remedy.dev/remedy", "metal3",
                "remedy.dev/node-name", "node-m1"));
        assertThat(cr.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cluster.x-k8s.io/cluster-name", "prod", "app.kubernetes.io/managed-by", "remedy"));
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) cr.getAdditionalProperties().get("spec");
        assertThat(spec).isEqualTo(flat);
        assertThat(EscalateStrategy.fromSpec(spec))
                .isEqualTo(new EscalateStrategy(10, Duration.ofSeconds(120), Duration.ofSeconds(600)));
    }

    @Test
    @DisplayName("a template with multiple-templates-support makes generateName <node>-; a new instance re-attaches "
            + "to that object through the node's annotations instead of making a second")
    void multipleTemplates() {
        ExternalFixtures.addNode(client, "worker-2", Map.of(), Map.of());
        snrTemplate(Map.of("remediation.medik8s.io/multiple-templates-support", "true"));

        remediations().create("worker-2", SNR_REMEDY);
        KubeExternalRemediations restarted = remediations();
        restarted.create("worker-2", SNR_REMEDY);

        List<GenericKubernetesResource> objects = ExternalFixtures.list(client, SNR, "medik8s");
        assertThat(objects).singleElement().satisfies(cr -> {
            assertThat(cr.getMetadata().getGenerateName()).isEqualTo("worker-2-");
            assertThat(cr.getMetadata().getName()).startsWith("worker-2-").isNotEqualTo("worker-2-");
        });
        String name = objects.get(0).getMetadata().getName();
        ExternalFixtures.setCondition(client, SNR, "medik8s", name, "Succeeded", "True");
        assertThat(restarted.progress("worker-2", SNR_REMEDY)).isEqualTo(Progress.DONE);
    }

    @ParameterizedTest(name = "Succeeded={0} is {1}")
    @CsvSource({"True, DONE", "False, FAILED", "Unknown, RUNNING"})
    @DisplayName("progress follows the Succeeded condition as NodeHealthCheck reads it")
    void progressFromConditions(String status, Progress expected) {
        ExternalFixtures.addNode(client, "worker-3", Map.of(), Map.of());
        snrTemplate(Map.of());
        KubeExternalRemediations remediations = remediations();
        remediations.create("worker-3", SNR_REMEDY);
        assertThat(remediations.progress("worker-3", SNR_REMEDY)).as("no condition yet").isEqualTo(Progress.RUNNING);
        ExternalFixtures.setCondition(client, SNR, "medik8s", "worker-3", "Processing", "True");
        assertThat(remediations.progress("worker-3", SNR_REMEDY)).as("Processing alone").isEqualTo(Progress.RUNNING);

        ExternalFixtures.setCondition(client, SNR, "medik8s", "worker-3", "Succeeded", status);

        assertThat(remediations.progress("worker-3", SNR_REMEDY)).isEqualTo(expected);
    }

    @Test
    @DisplayName("a timeout first writes remediation.medik8s.io/nhc-timed-out (RFC 3339) so the remediator stops, "
            + "then deletes the object and the node's annotations")
    void timeout() {
        ExternalFixtures.addNode(client, "worker-4", Map.of(), Map.of());
        snrTemplate(Map.of());
        KubeExternalRemediations remediations = remediations();
        remediations.create("worker-4", SNR_REMEDY);
        ExternalFixtures.addFinalizer(client, SNR, "medik8s", "worker-4", "remediation.medik8s.io/snr-finalizer");
        time.advance(Duration.ofMinutes(10));

        remediations.delete("worker-4", SNR_REMEDY, Cancellation.TIMED_OUT);

        GenericKubernetesResource cr = ExternalFixtures.get(client, SNR, "medik8s", "worker-4");
        assertThat(cr.getMetadata().getAnnotations())
                .containsEntry("remediation.medik8s.io/nhc-timed-out", "2026-01-01T00:10:00Z");
        assertThat(cr.getMetadata().getDeletionTimestamp()).as("deleted; the remediator's finalizer holds it")
                .isNotNull();
        assertThat(ExternalFixtures.annotations(client.nodes().withName("worker-4").get()))
                .doesNotContainKeys("remedy.dev/external-remedy", "remedy.dev/external-remediation",
                        "remedy.dev/external-remediation-started");
    }

    @Test
    @DisplayName("a healthy node: the object is deleted without the timed-out annotation")
    void healthy() {
        ExternalFixtures.addNode(client, "worker-5", Map.of(), Map.of());
        snrTemplate(Map.of());
        KubeExternalRemediations remediations = remediations();
        remediations.create("worker-5", SNR_REMEDY);
        ExternalFixtures.addFinalizer(client, SNR, "medik8s", "worker-5", "remediation.medik8s.io/snr-finalizer");

        remediations.delete("worker-5", SNR_REMEDY, Cancellation.NODE_HEALTHY);

        GenericKubernetesResource cr = ExternalFixtures.get(client, SNR, "medik8s", "worker-5");
        assertThat(cr.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(cr.getMetadata().getAnnotations()).doesNotContainKey("remediation.medik8s.io/nhc-timed-out");
        ExternalFixtures.addNode(client, "worker-6", Map.of(), Map.of());
        KubeExternalRemediations restarted = remediations();
        restarted.create("worker-6", SNR_REMEDY);
        remediations().delete("worker-6", SNR_REMEDY, Cancellation.NODE_HEALTHY);
        assertThat(ExternalFixtures.get(client, SNR, "medik8s", "worker-6"))
                .as("a new instance deletes the object the node's annotations name").isNull();
    }

    @Test
    @DisplayName("a missing template fails the remedy at once with a Warning naming apiVersion, kind, namespace, "
            + "name and what to do; nothing is created")
    void missingTemplate() {
        ExternalFixtures.addNode(client, "worker-7", Map.of(), Map.of());
        KubeExternalRemediations remediations = remediations();

        remediations.create("worker-7", SNR_REMEDY);

        assertThat(remediations.progress("worker-7", SNR_REMEDY)).isEqualTo(Progress.FAILED);
        assertThat(ExternalFixtures.list(client, SNR, "medik8s")).isEmpty();
        assertThat(events).singleElement().satisfies(note -> {
            assertThat(note.warning()).isTrue();
            assertThat(note.reason()).isEqualTo("ExternalRemediationFailed");
            assertThat(note.regarding().getName()).isEqualTo("worker-7");
            assertThat(note.note()).contains(SNR_API).contains("SelfNodeRemediationTemplate")
                    .contains("medik8s/snr-oos").contains("does not exist: create it");
        });
    }

    @Test
    @DisplayName("an object that vanishes while running fails the remedy (escalate), with a Warning")
    void vanished() {
        ExternalFixtures.addNode(client, "worker-8", Map.of(), Map.of());
        snrTemplate(Map.of());
        KubeExternalRemediations remediations = remediations();
        remediations.create("worker-8", SNR_REMEDY);

        client.genericKubernetesResources(SNR).inNamespace("medik8s").withName("worker-8").delete();

        assertThat(remediations.progress("worker-8", SNR_REMEDY)).isEqualTo(Progress.FAILED);
        assertThat(events).extracting(KubeEvents.Note::note).last().asString()
                .contains("medik8s/worker-8 was deleted by someone else");
    }

    @Test
    @DisplayName("an object of that name that remedy did not make is never taken over: the remedy fails")
    void foreignObject() {
        ExternalFixtures.addNode(client, "worker-9", Map.of(), Map.of());
        snrTemplate(Map.of());
        GenericKubernetesResource foreign = new GenericKubernetesResource();
        foreign.setApiVersion(SNR_API);
        foreign.setKind("SelfNodeRemediation");
        foreign.setMetadata(new ObjectMetaBuilder().withNamespace("medik8s")
                .withName("worker-9").addToLabels("app.kubernetes.io/part-of", "node-healthcheck-controller").build());
        client.genericKubernetesResources(SNR).inNamespace("medik8s").resource(foreign).create();
        KubeExternalRemediations remediations = remediations();

        remediations.create("worker-9", SNR_REMEDY);

        assertThat(remediations.progress("worker-9", SNR_REMEDY)).isEqualTo(Progress.FAILED);
        assertThat(ExternalFixtures.get(client, SNR, "medik8s", "worker-9").getMetadata().getLabels())
                .as("left as it was").doesNotContainKey("app.kubernetes.io/managed-by");
        assertThat(events).extracting(KubeEvents.Note::note).last().asString()
                .contains("was not made by remedy");
    }

    @Test
    @DisplayName("a finished object of remedy's from an earlier remediation is deleted, and a new one made once it is "
            + "gone")
    void leftover() {
        ExternalFixtures.addNode(client, "worker-10", Map.of(), Map.of());
        snrTemplate(Map.of());
        remediations().create("worker-10", SNR_REMEDY);
        ExternalFixtures.setCondition(client, SNR, "medik8s", "worker-10", "Succeeded", "False");
        String oldUid = ExternalFixtures.get(client, SNR, "medik8s", "worker-10").getMetadata().getUid();
        client.nodes().withName("worker-10").edit(n -> {
            n.getMetadata().getAnnotations().remove("remedy.dev/external-remedy");
            return n;
        });
        KubeExternalRemediations restarted = remediations();

        restarted.create("worker-10", SNR_REMEDY);
        assertThat(restarted.progress("worker-10", SNR_REMEDY)).as("the new object has no outcome yet")
                .isEqualTo(Progress.RUNNING);

        GenericKubernetesResource cr = ExternalFixtures.get(client, SNR, "medik8s", "worker-10");
        assertThat(cr.getMetadata().getUid()).isNotEqualTo(oldUid);
        assertThat(cr.getAdditionalProperties()).doesNotContainKey("status");
    }

    @Test
    @DisplayName("owner references of the plain-node path: none, so deleting the Node never garbage-collects a "
            + "remediation mid-flight")
    void noNodeOwner() {
        ExternalFixtures.addNode(client, "worker-11", Map.of(), Map.of());
        snrTemplate(Map.of());
        remediations().create("worker-11", SNR_REMEDY);

        List<OwnerReference> owners = ExternalFixtures.get(client, SNR, "medik8s", "worker-11").getMetadata()
                .getOwnerReferences();

        assertThat(owners).noneMatch(o -> "Node".equals(o.getKind()));
    }

    @Test
    @DisplayName("progress without a create makes nothing: a start refused because another remediator holds the "
            + "node's Lease stays unmade until its timeout")
    void progressAloneCreatesNothing() {
        ExternalFixtures.addNode(client, "worker-12", Map.of(), Map.of());
        snrTemplate(Map.of());
        KubeExternalRemediations remediations = remediations();

        assertThat(remediations.progress("worker-12", SNR_REMEDY)).isEqualTo(Progress.RUNNING);

        assertThat(ExternalFixtures.list(client, SNR, "medik8s")).isEmpty();
        remediations.delete("worker-12", SNR_REMEDY, Cancellation.TIMED_OUT);
        assertThat(events).isEmpty();
    }

    @Test
    @DisplayName("a node whose Cluster API Machine does not exist fails the remedy with a Warning naming the Machine; "
            + "nothing is created under the node's own name")
    void missingMachine() {
        ExternalFixtures.addNode(client, "node-m2", Map.of(), Map.of("cluster.x-k8s.io/machine", "gone-machine",
                "cluster.x-k8s.io/cluster-namespace", "capi-prod"));
        ExternalFixtures.addTemplate(client, METAL3_TEMPLATE, "capi-prod", "m3-group", Map.of(), Map.of());
        Remedy.External remedy = new Remedy.External("metal3", TIMEOUT, new Remedy.External.TemplateRef(METAL3_API,
                "Metal3RemediationTemplate", "m3-group", Optional.of("capi-prod")));
        KubeExternalRemediations remediations = remediations();

        remediations.create("node-m2", remedy);

        assertThat(remediations.progress("node-m2", remedy)).isEqualTo(Progress.FAILED);
        assertThat(ExternalFixtures.list(client, METAL3, "capi-prod")).isEmpty();
        assertThat(events).singleElement().extracting(KubeEvents.Note::note).asString()
                .contains("Cluster API Machine capi-prod/gone-machine of node node-m2 does not exist");
    }

    @Test
    @DisplayName("an inline object (not a template) is created as given, named like the node, in remedy's namespace")
    void inlineObject() {
        ExternalFixtures.addNode(client, "worker-13", Map.of(), Map.of());
        Remedy.External remedy = new Remedy.External("snr-inline", TIMEOUT, Map.of("apiVersion", SNR_API,
                "kind", "SelfNodeRemediation", "spec", SNR_SPEC));

        remediations().create("worker-13", remedy);

        GenericKubernetesResource cr = ExternalFixtures.get(client, SNR, REMEDY_NS, "worker-13");
        assertThat(cr.getAdditionalProperties().get("spec")).isEqualTo(SNR_SPEC);
        assertThat(cr.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "remediation.medik8s.io/node-name", "worker-13", "remedy.dev/remedy", "snr-inline",
                "remedy.dev/node-name", "worker-13"));
        assertThat(cr.getMetadata().getLabels()).containsExactlyEntriesOf(Map.of(
                "app.kubernetes.io/managed-by", "remedy"));
    }
}
