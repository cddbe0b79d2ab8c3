package dev.remedy.fence.kube.cluster;

import dev.remedy.core.engine.Taint;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Nodes and pods for the tests, written and read with the plain client (never through the class under test), so
 * that an operation that reports success without an effect is caught.
 */
final class KubeFixtures {

    private KubeFixtures() {
    }

    /** A Ready-looking Node named {@code name}: schedulable, untainted, with a label, an annotation and a spec. */
    static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name)
                .addToLabels("topology.kubernetes.io/zone", "zone-a")
                .addToAnnotations("example.com/rack", "r12")
                .endMetadata()
                .withNewSpec().withPodCIDR("10.244.7.0/24").withPodCIDRs("10.244.7.0/24")
                .withProviderID("metal3://ns/" + name).endSpec()
                .build();
    }

    /** Creates {@code node} and {@code pods} pods bound to it, spread over {@code namespaces}. */
    static void addNode(KubernetesClient client, String node, int pods, String... namespaces) {
        client.nodes().resource(node(node)).create();
        for (int i = 0; i < pods; i++) {
            addPod(client, namespaces[i % namespaces.length], node + "-pod-" + i, node);
        }
    }

    /** Creates a pod named {@code name} in {@code namespace}, bound to {@code node}. */
    static Pod addPod(KubernetesClient client, String namespace, String name, String node) {
        return client.pods().inNamespace(namespace).resource(pod(namespace, name, node)).create();
    }

    /** A pod bound to {@code node} with one container. */
    static Pod pod(String namespace, String name, String node) {
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("app").withImage("busybox")
                .endContainer().endSpec().build();
    }

    /** The taints of {@code node}, in order, as remedy's {@link Taint}s. */
    static List<Taint> taints(KubernetesClient client, String node) {
        return Optional.ofNullable(client.nodes().withName(node).get().getSpec().getTaints()).orElse(List.of())
                .stream().map(t -> new Taint(t.getKey(), Objects.requireNonNullElse(t.getValue(), ""), t.getEffect()))
                .toList();
    }

    /** Whether {@code node} has {@code spec.unschedulable: true}. */
    static boolean cordoned(KubernetesClient client, String node) {
        return Boolean.TRUE.equals(client.nodes().withName(node).get().getSpec().getUnschedulable());
    }

    /** The pods bound to {@code node}, found by listing every pod (the mock server has no field selector). */
    static List<Pod> podsOf(KubernetesClient client, String node) {
        return client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> node.equals(p.getSpec().getNodeName())).toList();
    }

    /** Whether the Node object {@code node} exists. */
    static boolean exists(KubernetesClient client, String node) {
        return client.nodes().withName(node).get() != null;
    }
}
