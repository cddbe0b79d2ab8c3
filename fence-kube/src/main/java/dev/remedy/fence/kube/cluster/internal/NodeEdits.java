package dev.remedy.fence.kube.cluster.internal;

import dev.remedy.core.engine.Taint;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes a Node's {@code spec.unschedulable} and taints without overwriting a change made by someone else.
 *
 * <p>The cordon is a JSON merge patch of {@code spec.unschedulable} alone. A taint change is a read-modify-write
 * of {@code spec.taints}: a JSON patch that sets the list and, as its precondition, replaces
 * {@code metadata.resourceVersion} with the version that was read. The API server refuses a patched object whose
 * resourceVersion is not the current one with 409 Conflict, so a taint added or removed by someone else between
 * the read and the write is never lost: the change is read again and retried, at most {@value #ATTEMPTS} times.
 * (A JSON patch {@code test} op on the resourceVersion would get 422 from a real API server, but fabric8's mock
 * server never answers a failing {@code test}; the replace is refused with 409 by both.)
 *
 * <p>A taint is identified by key, value and effect; {@code timeAdded} is not compared. Kubernetes allows one taint
 * per key and effect, so adding a taint replaces one of the same key and effect with another value. A
 * {@code NoExecute} taint is added with {@code timeAdded} (RFC 3339, whole seconds), as Kubernetes does.
 */
public final class NodeEdits {

    /** How often a taint change is read and written again after a conflict before it fails. */
    public static final int ATTEMPTS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(NodeEdits.class);
    private static final PatchContext JSON_PATCH = PatchContext.of(PatchType.JSON);
    private static final PatchContext MERGE_PATCH = PatchContext.of(PatchType.JSON_MERGE);
    private static final String NO_EXECUTE = "NoExecute";

    private final KubernetesClient client;
    private final TimeSource time;

    /** Edits nodes through {@code client}; {@code time} stamps {@code timeAdded}. */
    public NodeEdits(KubernetesClient client, TimeSource time) {
        this.client = Objects.requireNonNull(client, "client");
        this.time = Objects.requireNonNull(time, "time");
    }

    /**
     * Sets {@code spec.unschedulable} of {@code node} (removes the field to make it schedulable).
     *
     * @throws IllegalStateException if the Node does not exist
     */
    public void setUnschedulable(String node, boolean unschedulable) {
        String patch = "{\"spec\":{\"unschedulable\":" + (unschedulable ? "true" : "null") + "}}";
        String what = unschedulable ? "cordon" : "uncordon";
        try {
            client.nodes().withName(node).patch(MERGE_PATCH, patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                throw new IllegalStateException("cannot " + what + " node " + node
                        + ": the Node object does not exist", e);
            }
            throw failure(what + " node " + node, e);
        }
    }

    /**
     * Adds {@code taint} to {@code node} unless a taint of the same key, value and effect is there.
     *
     * @throws IllegalStateException if the Node does not exist, or it changed under every attempt
     */
    public void addTaint(String node, Taint taint) {
        change(node, "add taint " + text(taint), false, taints -> {
            if (taints.stream().anyMatch(t -> matches(t, taint))) {
                return taints;
            }
            List<io.fabric8.kubernetes.api.model.Taint> changed = new ArrayList<>(taints);
            // one taint per key and effect (API validation): the new value replaces the old one
            changed.removeIf(t -> taint.key().equals(t.getKey()) && taint.effect().equals(t.getEffect()));
            changed.add(toKube(taint));
            return changed;
        });
    }

    /**
     * Removes every taint of {@code node} with the key, value and effect of {@code taint}, whatever its
     * {@code timeAdded}. A Node that does not exist has no taint to remove: nothing happens.
     *
     * @throws IllegalStateException if the Node changed under every attempt
     */
    public void removeTaint(String node, Taint taint) {
        change(node, "remove taint " + text(taint), true, taints -> {
            List<io.fabric8.kubernetes.api.model.Taint> changed = new ArrayList<>(taints);
            changed.removeIf(t -> matches(t, taint));
            return changed.size() == taints.size() ? taints : changed;
        });
    }

    /**
     * Reads the node's taints, applies {@code edit} and writes the result guarded by the resourceVersion read.
     * {@code edit} returns its argument itself when nothing is to change.
     */
    private void change(String node, String what, boolean missingIsDone,
                        UnaryOperator<List<io.fabric8.kubernetes.api.model.Taint>> edit) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Node current = read(node, what);
            if (current == null) {
                if (missingIsDone) {
                    LOG.debug("{} of node {}: the Node object does not exist, nothing to do", what, node);
                    return;
                }
                throw new IllegalStateException("cannot " + what + " on node " + node
                        + ": the Node object does not exist");
            }
            List<io.fabric8.kubernetes.api.model.Taint> taints = Optional.ofNullable(current.getSpec())
                    .map(spec -> spec.getTaints()).orElse(List.of());
            List<io.fabric8.kubernetes.api.model.Taint> changed = edit.apply(taints);
            if (changed == taints) {
                return;
            }
            try {
                // on the Node read (not by name): fabric8 then sends the patch without reading the Node again
                client.nodes().resource(current).patch(JSON_PATCH, patch(current, changed));
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw failure(what + " on node " + node, e);
                }
                LOG.debug("{} on node {}: the node changed since it was read (attempt {} of {}), reading it again",
                        what, node, attempt, ATTEMPTS);
            }
        }
        throw new IllegalStateException("cannot " + what + " on node " + node + ": the Node changed between read "
                + "and write " + ATTEMPTS + " times in a row (409 Conflict each time); something else is "
                + "rewriting it, the engine retries");
    }

    private Node read(String node, String what) {
        try {
            return client.nodes().withName(node).get();
        } catch (KubernetesClientException e) {
            throw failure("read node " + node + " to " + what, e);
        }
    }

    /** The JSON patch: the read resourceVersion as precondition, then the new taint list. */
    private String patch(Node current, List<io.fabric8.kubernetes.api.model.Taint> taints) {
        List<Map<String, Object>> ops = new ArrayList<>();
        ops.add(op("replace", "/metadata/resourceVersion", current.getMetadata().getResourceVersion()));
        if (current.getSpec() == null) {
            ops.add(op("add", "/spec", Map.of("taints", taints)));
        } else {
            // "add" of an existing member replaces it (RFC 6902), and creates it when absent
            ops.add(op("add", "/spec/taints", taints));
        }
        return client.getKubernetesSerialization().asJson(ops);
    }

    private static Map<String, Object> op(String op, String path, Object value) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("op", op);
        map.put("path", path);
        map.put("value", value);
        return map;
    }

    private io.fabric8.kubernetes.api.model.Taint toKube(Taint taint) {
        TaintBuilder builder = new TaintBuilder().withKey(taint.key()).withValue(taint.value())
                .withEffect(taint.effect());
        if (NO_EXECUTE.equals(taint.effect())) {
            builder.withTimeAdded(DateTimeFormatter.ISO_INSTANT.format(time.instant().truncatedTo(ChronoUnit.SECONDS)));
        }
        return builder.build();
    }

    /** Whether a node's taint is {@code taint}: same key, value (absent is empty) and effect. */
    static boolean matches(io.fabric8.kubernetes.api.model.Taint kube, Taint taint) {
        return taint.key().equals(kube.getKey())
                && taint.value().equals(Objects.requireNonNullElse(kube.getValue(), ""))
                && taint.effect().equals(kube.getEffect());
    }

    private static String text(Taint taint) {
        return taint.key() + "=" + taint.value() + ":" + taint.effect();
    }

    /** A failure of the API server, with what was being done and the server's answer. */
    static IllegalStateException failure(String what, KubernetesClientException e) {
        String status = e.getCode() > 0 ? "HTTP " + e.getCode() : "no HTTP answer";
        String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                : e.getMessage();
        return new IllegalStateException("cannot " + what + ": the API server failed (" + status + "): " + message,
                e);
    }
}
