package dev.remedy.fence.kube.external.internal;

import dev.remedy.fence.kube.store.internal.AnnotationPatch;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The annotations on a Node that name its running external remediation, so that a restarted operator finds the
 * object again (a Job it would otherwise start twice; an object whose name the API server generated):
 * {@value #REMEDY} (the remedy's name), {@value #OBJECT} ({@code <namespace>/<name>} of the object) and
 * {@value #STARTED} (when it was created, RFC 3339). Written with patches guarded by the Node's resourceVersion,
 * retried on a conflict.
 */
public final class NodeMarks {

    /** The remedy whose object is running for the node. */
    public static final String REMEDY = "remedy.dev/external-remedy";
    /** {@code <namespace>/<name>} of that object (for a Job: the Job, whose pods are named after it). */
    public static final String OBJECT = "remedy.dev/external-remediation";
    /** When the object was created, RFC 3339. */
    public static final String STARTED = "remedy.dev/external-remediation-started";

    private static final int ATTEMPTS = 5;

    private final KubernetesClient client;

    /** Marks written through {@code client}. */
    public NodeMarks(KubernetesClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /** The object that {@code node} names for {@code remedy}: {@code [namespace, name]}, if any. */
    public static Optional<String[]> objectOf(Node node, String remedy) {
        Map<String, String> annotations = Optional.ofNullable(node.getMetadata().getAnnotations()).orElse(Map.of());
        String object = annotations.get(OBJECT);
        if (!remedy.equals(annotations.get(REMEDY)) || object == null || object.indexOf('/') < 1) {
            return Optional.empty();
        }
        return Optional.of(object.split("/", 2));
    }

    /** Marks {@code node} as remediated by {@code remedy} with object {@code namespace/name} since {@code started}. */
    public void mark(String node, String remedy, String namespace, String name, Instant started) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(REMEDY, remedy);
        values.put(OBJECT, namespace + "/" + name);
        values.put(STARTED, started.toString());
        for (int attempt = 1; ; attempt++) {
            Node current = client.nodes().withName(node).get();
            if (current == null) {
                return;
            }
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("resourceVersion", current.getMetadata().getResourceVersion());
            metadata.put("annotations", values);
            if (patched(node, PatchType.JSON_MERGE, client.getKubernetesSerialization()
                    .asJson(Map.of("metadata", metadata)), attempt)) {
                return;
            }
        }
    }

    /**
     * Removes the marks of {@code node} if they name {@code remedy}: a JSON patch (RFC 6902) that removes only the keys
     * present, guarded by the resourceVersion it was made from (a merge patch's {@code null} would do the same on a
     * real server; fabric8's mock server keeps the keys with null values).
     */
    public void clear(String node, String remedy) {
        for (int attempt = 1; ; attempt++) {
            Node current = client.nodes().withName(node).get();
            if (current == null) {
                return;
            }
            Map<String, String> annotations = Optional.ofNullable(current.getMetadata().getAnnotations())
                    .orElse(Map.of());
            if (!remedy.equals(annotations.get(REMEDY))) {
                return;
            }
            List<String> present = List.of(REMEDY, OBJECT, STARTED).stream().filter(annotations::containsKey)
                    .toList();
            if (patched(node, PatchType.JSON, AnnotationPatch.removeIfUnchanged(
                    current.getMetadata().getResourceVersion(), present), attempt)) {
                return;
            }
        }
    }

    /** Applies {@code patch}; false on a conflict while attempts are left. */
    private boolean patched(String node, PatchType type, String patch, int attempt) {
        try {
            client.nodes().withName(node).patch(PatchContext.of(type), patch);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt >= ATTEMPTS) {
                throw e;
            }
            return false;
        }
    }
}
