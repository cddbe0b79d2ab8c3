package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentReport;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.fence.kube.ha.NodeAgentLeases;
import dev.remedy.fence.kube.remediation.NodeFenceRemediation;
import dev.remedy.fence.kube.remediation.RemediationCrds;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.fence.kube.store.NodeFenceResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The node agent's view of the API server, against fabric8's mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class KubeClusterViewTest {

    private static final String NS = "remedy-system";
    private static final Instant BOOT = Instant.EPOCH;

    KubernetesClient client;
    private KubeClusterView view;

    @BeforeEach
    void setUp() {
        NodeFenceCrd.apply(client);
        RemediationCrds.apply(client);
        client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName("machines.cluster.x-k8s.io").endMetadata().withNewSpec()
                .withGroup("cluster.x-k8s.io").withScope("Namespaced").withNewNames().withKind("Machine")
                .withPlural("machines").withSingular("machine").endNames().addNewVersion().withName("v1beta1")
                .withServed(true).withStorage(true).withNewSchema().withNewOpenAPIV3Schema().withType("object")
                .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema().endVersion().endSpec()
                .build()).create();
        view = new KubeClusterView(client, NS, NodeAgentSettings.ofDefaults(), "v1beta1");
        node("w1", Map.of("topology.remedy.dev/rack", "r1"), Map.of());
        node("w2", Map.of(), Map.of());
    }

    private void node(String name, Map<String, String> labels, Map<String, String> annotations) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withLabels(labels)
                .withAnnotations(annotations).endMetadata().withNewStatus().addNewAddress().withType("Hostname")
                .withAddress(name).endAddress().addNewAddress().withType("InternalIP").withAddress("10.0.0." + name
                        .substring(1)).endAddress().endStatus().build()).create();
    }

    private void fence(String node, String step, String state) {
        NodeFenceResource f = new NodeFenceResource();
        f.setMetadata(new ObjectMetaBuilder().withName(node).build());
        f.getSpec().setNode(node);
        f.getSpec().setStep(step);
        f.getSpec().setState(state);
        client.resources(NodeFenceResource.class).resource(f).create();
    }

    @Test
    @DisplayName("no signal: healthy, the node's labels and every node with its InternalIP as peers")
    void healthy() throws Exception {
        SelfReport r = view.check("w1", BOOT);
        assertThat(r.remediation()).isEmpty();
        assertThat(r.labels()).containsEntry("topology.remedy.dev/rack", "r1");
        assertThat(r.nodes()).extracting(PeerNode::name).containsExactlyInAnyOrder("w1", "w2");
        assertThat(r.nodes()).extracting(PeerNode::address).contains(Optional.of("10.0.0.2"));
        assertThat(view.judge("w1", BOOT)).isEqualTo(PeerAnswer.HEALTHY);
    }

    @Test
    @DisplayName("a NodeFence being fenced names the node; one final or in recovery does not")
    void nodeFence() throws Exception {
        fence("w1", "power_management", "running");
        fence("w2", "recovery", "running");
        assertThat(view.check("w1", BOOT).remediation()).hasValueSatisfying(s -> assertThat(s).contains("NodeFence"));
        assertThat(view.judge("w1", BOOT)).isEqualTo(PeerAnswer.UNHEALTHY);
        assertThat(view.check("w2", BOOT).remediation()).isEmpty();
    }

    @Test
    @DisplayName("a signal created before the node booted was answered by that boot: ignored")
    void beforeBoot() throws Exception {
        fence("w1", "isolation", "new");
        Instant later = Instant.now().plus(Duration.ofHours(1));
        assertThat(view.check("w1", later).remediation()).isEmpty();
        assertThat(view.judge("w1", later)).isEqualTo(PeerAnswer.HEALTHY);
    }

    @Test
    @DisplayName("a NodeFenceRemediation names the node by annotation, or by its own name")
    void remediation() throws Exception {
        NodeFenceRemediation r = new NodeFenceRemediation();
        r.setMetadata(new ObjectMetaBuilder().withName("x").withNamespace("ops")
                .addToAnnotations("remediation.medik8s.io/node-name", "w2").build());
        client.resources(NodeFenceRemediation.class).inNamespace("ops").resource(r).create();
        assertThat(view.check("w2", BOOT).remediation()).hasValueSatisfying(s -> assertThat(s)
                .contains("NodeFenceRemediation ops/x"));
        assertThat(view.check("w1", BOOT).remediation()).isEmpty();
        NodeFenceRemediation named = new NodeFenceRemediation();
        named.setMetadata(new ObjectMetaBuilder().withName("w1").withNamespace("ops").build());
        client.resources(NodeFenceRemediation.class).inNamespace("ops").resource(named).create();
        assertThat(view.judge("w1", BOOT)).isEqualTo(PeerAnswer.UNHEALTHY);
    }

    @Test
    @DisplayName("Cluster API: the Machine's host.metal3.io/external-remediation, or a remediation owned by it")
    void machine() throws Exception {
        node("w3", Map.of(), Map.of("cluster.x-k8s.io/machine", "m3", "cluster.x-k8s.io/cluster-namespace", "capi"));
        ResourceDefinitionContext machines = new ResourceDefinitionContext.Builder().withGroup("cluster.x-k8s.io")
                .withVersion("v1beta1").withKind("Machine").withPlural("machines").withNamespaced(true).build();
        GenericKubernetesResource m = new GenericKubernetesResource();
        m.setApiVersion("cluster.x-k8s.io/v1beta1");
        m.setKind("Machine");
        m.setMetadata(new ObjectMeta());
        m.getMetadata().setName("m3");
        m.getMetadata().setNamespace("capi");
        client.genericKubernetesResources(machines).inNamespace("capi").resource(m).create();
        assertThat(view.check("w3", BOOT).remediation()).isEmpty();
        client.genericKubernetesResources(machines).inNamespace("capi").withName("m3").edit(x -> {
            x.getMetadata().setAnnotations(Map.of("host.metal3.io/external-remediation", ""));
            return x;
        });
        assertThat(view.check("w3", BOOT).remediation()).hasValueSatisfying(s -> assertThat(s)
                .contains("Machine capi/m3"));
        client.genericKubernetesResources(machines).inNamespace("capi").withName("m3").edit(x -> {
            x.getMetadata().setAnnotations(Map.of());
            return x;
        });
        NodeFenceRemediation owned = new NodeFenceRemediation();
        owned.setMetadata(new ObjectMetaBuilder().withName("m3").withNamespace("capi").withOwnerReferences(
                new OwnerReferenceBuilder().withApiVersion("cluster.x-k8s.io/v1beta1").withKind("Machine")
                        .withName("m3").withUid("u").build()).build());
        client.resources(NodeFenceRemediation.class).inNamespace("capi").resource(owned).create();
        assertThat(view.check("w3", BOOT).remediation()).hasValueSatisfying(s -> assertThat(s)
                .contains("NodeFenceRemediation capi/m3"));
        assertThat(view.check("w1", BOOT).remediation()).as("owned by another node's Machine").isEmpty();
    }

    @Test
    @DisplayName("a deleted Node object is a signal: its workloads may have been released")
    void nodeGone() throws Exception {
        client.nodes().withName("w2").delete();
        assertThat(view.check("w2", BOOT).remediation()).hasValueSatisfying(s -> assertThat(s)
                .contains("no longer exists"));
    }

    @Test
    @DisplayName("the Lease: created then renewed, holder the node, watchdog mode, timeout and settings fingerprint")
    void lease() throws Exception {
        Instant first = Instant.parse("2026-11-26T09:00:00Z");
        view.report("w1", WatchdogMode.ARMED, Optional.of(Duration.ofSeconds(60)), first);
        view.report("w1", WatchdogMode.SOFTWARE_REBOOT, Optional.empty(), first.plusSeconds(15));
        Lease lease = client.leases().inNamespace(NS).withName("remedy-node-agent-w1").get();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("w1");
        assertThat(lease.getSpec().getRenewTime().toInstant()).isEqualTo(first.plusSeconds(15));
        assertThat(lease.getSpec().getAcquireTime().toInstant()).isEqualTo(first);
        assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(35);
        assertThat(lease.getMetadata().getAnnotations()).containsEntry("remedy.dev/watchdog", "software-reboot")
                .doesNotContainKey("remedy.dev/watchdog-timeout")
                .containsEntry("remedy.dev/node-agent-settings", NodeAgentSettings.ofDefaults().fingerprint());
        view.report("w1", WatchdogMode.ARMED, Optional.of(Duration.ofSeconds(90)), first.plusSeconds(30));
        assertThat(client.leases().inNamespace(NS).withName("remedy-node-agent-w1").get().getMetadata()
                .getAnnotations()).containsEntry("remedy.dev/watchdog", "armed")
                .containsEntry("remedy.dev/watchdog-timeout", "90s");
    }

    @Test
    @DisplayName("what the agent writes, the operator's reader (NodeAgentLeases) reads back")
    void operatorReadsTheReport() throws Exception {
        Instant renewed = Instant.parse("2026-11-26T09:00:00Z");
        view.report("w1", WatchdogMode.ARMED, Optional.of(Duration.ofSeconds(90)), renewed);
        NodeAgentReport report = NodeAgentLeases.read(client, NS, "w1").orElseThrow();
        assertThat(report).isEqualTo(new NodeAgentReport("w1", WatchdogMode.ARMED,
                Optional.of(Duration.ofSeconds(90)), NodeAgentSettings.ofDefaults().fingerprint(), renewed));
        assertThat(report.armedWithin(renewed.plusSeconds(15), Duration.ofSeconds(15))).isTrue();
        assertThat(report.watchdogTimeout(NodeAgentSettings.ofDefaults())).isEqualTo(Duration.ofSeconds(90));
        assertThat(NodeAgentLeases.read(client, NS, "w2")).isEmpty();
    }
}
