package dev.remedy.fence.kube.ha;

import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.fence.kube.cluster.KubeClusterOperations;
import dev.remedy.fence.kube.cluster.internal.NodePods;
import dev.remedy.fence.kube.store.KubeFenceStateStore;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.fence.kube.store.NodeFenceResource;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The one API server of a failover scenario as the test sees it: fixtures are written and the shared state is read
 * with the test's own client, never through a replica, so that a replica that reports an effect it did not make is
 * caught. Also makes each replica's own client on the same server.
 */
final class ApiServer {

    /** A healthy node next to the fenced one: nothing of it may be touched. */
    static final String BYSTANDER = "worker-2";
    private static final List<String> NAMESPACES = List.of("apps", "db");

    private final KubernetesClient client;
    private final KubeFenceStateStore records;

    /** Installs the NodeFence CRD on the server {@code client} talks to. */
    ApiServer(KubernetesClient client) {
        this.client = client;
        NodeFenceCrd.apply(client);
        this.records = new KubeFenceStateStore(client);
    }

    /** A new client on the same server, as another process would have (its own connections). */
    KubernetesClient newClient() {
        return new KubernetesClientBuilder().withConfig(client.getConfiguration()).build();
    }

    /** Creates a schedulable, untainted Node with {@code pods} pods bound to it and one attached volume. */
    void addNode(String node, int pods) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().withNewSpec()
                .withProviderID("metal3://remedy/" + node).endSpec().build()).create();
        for (int i = 0; i < pods; i++) {
            String namespace = NAMESPACES.get(i % NAMESPACES.size());
            client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withNamespace(namespace)
                    .withName(node + "-pod-" + i).endMetadata().withNewSpec().withNodeName(node).addNewContainer()
                    .withName("app").withImage("busybox").endContainer().endSpec().build()).create();
        }
        client.storage().v1().volumeAttachments().resource(new VolumeAttachmentBuilder().withNewMetadata()
                .withName("va-" + node).endMetadata().withNewSpec().withAttacher("csi.example.com")
                .withNodeName(node).withNewSource().withPersistentVolumeName("pv-" + node).endSource().endSpec()
                .build()).create();
    }

    /** The taints of {@code node} on the server, as remedy's {@link Taint}s. */
    List<Taint> taints(String node) {
        return Optional.ofNullable(client.nodes().withName(node).get().getSpec().getTaints()).orElse(List.of())
                .stream().map(t -> new Taint(t.getKey(), Objects.requireNonNullElse(t.getValue(), ""), t.getEffect()))
                .toList();
    }

    /** Whether {@code node} has {@code spec.unschedulable: true} on the server. */
    boolean cordoned(String node) {
        return Boolean.TRUE.equals(client.nodes().withName(node).get().getSpec().getUnschedulable());
    }

    /** The pods bound to {@code node}, found by listing every pod (the mock server has no field selector). */
    List<Pod> pods(String node) {
        return podsOf(client, node);
    }

    /** The VolumeAttachments that name {@code node}. */
    List<VolumeAttachment> attachments(String node) {
        return client.storage().v1().volumeAttachments().list().getItems().stream()
                .filter(va -> node.equals(va.getSpec().getNodeName())).toList();
    }

    /** Every NodeFence on the server. */
    List<NodeFenceResource> nodeFences() {
        return client.resources(NodeFenceResource.class).list().getItems();
    }

    /** The fence record of {@code node}, decoded from its NodeFence. */
    Optional<NodeFence> record(String node) {
        return records.load(node);
    }

    /** Every fence record, decoded from the NodeFences. */
    List<NodeFence> records() {
        return records.loadAll();
    }

    /**
     * {@code builder} with its pod listing routed around a gap of the mock server: the field selector
     * {@code spec.nodeName} matches nothing there, so the production listing would find no pod to delete. This
     * lists every pod and keeps the node's, in one page (the mock ignores {@code limit} anyway). The hook,
     * {@code Builder.pods(NodePods)}, is package-private in the cluster package; this test lives in the ha
     * package, hence the reflection.
     */
    static KubeClusterOperations.Builder listPodsWithoutFieldSelector(KubeClusterOperations.Builder builder,
                                                                      KubernetesClient client) {
        NodePods listing = (node, limit, continueToken) -> new PodListBuilder().withItems(podsOf(client, node))
                .withMetadata(new ListMetaBuilder().withContinue("").build()).build();
        try {
            Method pods = KubeClusterOperations.Builder.class.getDeclaredMethod("pods", NodePods.class);
            pods.setAccessible(true);
            pods.invoke(builder, listing);
            return builder;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("KubeClusterOperations.Builder.pods(NodePods), the test hook for the mock"
                    + " server's pod listing, is gone or changed: update this test", e);
        }
    }

    private static List<Pod> podsOf(KubernetesClient client, String node) {
        return client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> node.equals(p.getSpec().getNodeName())).toList();
    }
}
