package dev.remedy.fence.kube.cluster.internal;

import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.fence.kube.events.References;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a Node object after writing a durable backup of it, and re-creates it from that backup.
 *
 * <p>The backup is a ConfigMap in the backup namespace, named {@link #configMapName}, labelled
 * {@value #MANAGED_BY}{@code =remedy} and {@value #BACKUP_LABEL}{@code =true}, with the node's name and uid in
 * annotations and, under {@value #DATA_KEY}, the Node as it was deleted: name, labels, annotations and the whole
 * spec (unschedulable, taints, podCIDR(s), providerID, …); not its status, owners, finalizers or server-set fields.
 * It is written before the Node is deleted, and the delete is guarded by the resourceVersion the backup was made
 * from, so a crash between the two, or a change to the Node in between, loses nothing.
 *
 * <p>While the Node exists, every delete writes the backup from it (the live Node is the truth, even over a backup
 * of an earlier Node object of that name that was never restored); once the Node is gone a second delete changes
 * nothing, so the backup keeps the Node as its first successful delete found it.
 *
 * <p>The restore removes the backup once the Node exists again: right after re-creating it, or at once when a Node of
 * that name already exists (it is left as it is). A crash between the two leaves a backup that the next restore
 * removes.
 */
public final class NodeBackups {

    /** The label every object remedy manages carries, with value {@code remedy}. */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** The label of a node backup, with value {@code true}. */
    public static final String BACKUP_LABEL = "remedy.dev/node-backup";
    /** The annotation with the backed-up node's name (names are too long for a label value). */
    public static final String NODE_ANNOTATION = "remedy.dev/node-name";
    /** The annotation with the backed-up Node object's uid. */
    public static final String UID_ANNOTATION = "remedy.dev/node-uid";
    /** The ConfigMap key of the Node's JSON. */
    public static final String DATA_KEY = "node.json";

    private static final String PREFIX = "remedy-node-backup-";
    private static final int MAX_NAME = 253;
    private static final int HASH_CHARS = 16;
    private static final int ATTEMPTS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(NodeBackups.class);

    private final KubernetesClient client;
    private final String namespace;
    private final KubeEvents events;

    /** Backups in {@code namespace}, through {@code client}. */
    public NodeBackups(KubernetesClient client, String namespace, KubeEvents events) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.events = Objects.requireNonNull(events, "events");
    }

    /**
     * The backup ConfigMap's name: {@code remedy-node-backup-<node>}, or, when that is longer than 253 characters,
     * its start followed by a hash of the node name.
     */
    public static String configMapName(String node) {
        String name = PREFIX + node;
        if (name.length() <= MAX_NAME) {
            return name;
        }
        String kept = name.substring(0, MAX_NAME - HASH_CHARS - 1).replaceAll("[.-]+$", "");
        return kept + "-" + sha256(node).substring(0, HASH_CHARS);
    }

    /** The backup of {@code node}, or {@code null}. */
    public ConfigMap backup(String node) {
        try {
            return client.configMaps().inNamespace(namespace).withName(configMapName(node)).get();
        } catch (KubernetesClientException e) {
            throw NodeEdits.failure("read the backup of node " + node + " (ConfigMap " + where(node) + ")", e);
        }
    }

    /**
     * Writes the backup of {@code node}, then deletes the Node. Deleting a Node that does not exist succeeds and
     * keeps the backup there is.
     *
     * @throws IllegalStateException if the backup cannot be written (the Node is then not deleted), or the Node
     *                               changed under every attempt
     */
    public void deleteNode(String node) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Node current;
            try {
                current = client.nodes().withName(node).get();
            } catch (KubernetesClientException e) {
                throw NodeEdits.failure("read node " + node + " to delete it", e);
            }
            if (current == null) {
                LOG.debug("node {} is already deleted; its backup, if any, is kept", node);
                return;
            }
            if (!writeBackup(node, current)) {
                continue;
            }
            try {
                client.nodes().withName(node).lockResourceVersion(current.getMetadata().getResourceVersion())
                        .delete();
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                    LOG.debug("node {} changed since its backup (attempt {} of {}), backing it up again", node,
                            attempt, ATTEMPTS);
                    continue;
                }
                throw NodeEdits.failure("delete node " + node + " (its backup is in ConfigMap " + where(node) + ")",
                        e);
            }
            LOG.info("deleted node {}; its backup is in ConfigMap {}", node, where(node));
            events.publish(new KubeEvents.Note(reference(node, current.getMetadata().getUid()), false,
                    "NodeDeleted", "Release", "remedy deleted Node " + node + " of a machine verified off; its "
                    + "labels, annotations, taints and spec are kept in ConfigMap " + where(node)));
            return;
        }
        throw new IllegalStateException("cannot delete node " + node + ": it changed between its backup and its "
                + "deletion " + ATTEMPTS + " times in a row; the engine retries (the backup is in ConfigMap "
                + where(node) + ")");
    }

    /**
     * Re-creates {@code node} from its backup and then removes the backup. No backup: nothing happens. A Node of
     * that name that exists already is left alone, and the backup removed.
     *
     * @throws IllegalStateException if the backup is unreadable or the API server fails
     */
    public void restoreNode(String node) {
        ConfigMap backup = backup(node);
        if (backup == null) {
            LOG.debug("no backup of node {}: nothing to restore", node);
            return;
        }
        try {
            if (client.nodes().withName(node).get() == null) {
                Node saved = saved(node, backup);
                try {
                    Node created = client.nodes().resource(saved).create();
                    LOG.info("restored node {} from ConfigMap {}", node, where(node));
                    events.publish(new KubeEvents.Note(reference(node, created.getMetadata().getUid()), false,
                            "NodeRestored", "Recover", "remedy re-created Node " + node + " from its backup in "
                            + "ConfigMap " + where(node)));
                } catch (KubernetesClientException e) {
                    if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                        throw e;
                    }
                    LOG.info("node {} was re-created by someone else meanwhile; it is left as it is", node);
                }
            } else {
                LOG.info("node {} exists again; it is left as it is and its backup removed", node);
            }
            // the Node exists again: the backup has done its work
            client.configMaps().inNamespace(namespace).withName(backup.getMetadata().getName())
                    .lockResourceVersion(backup.getMetadata().getResourceVersion()).delete();
        } catch (KubernetesClientException e) {
            throw NodeEdits.failure("restore node " + node + " from ConfigMap " + where(node), e);
        }
    }

    /**
     * Writes the backup of {@code current}, or brings the backup there is up to date with it; {@code false} when the
     * backup changed meanwhile and the whole delete must start again.
     */
    private boolean writeBackup(String node, Node current) {
        ConfigMap existing = backup(node);
        String uid = Objects.requireNonNullElse(current.getMetadata().getUid(), "");
        String json = client.getKubernetesSerialization().asJson(kept(current));
        try {
            String backedUpUid = existing == null ? null : annotation(existing, UID_ANNOTATION);
            if (existing == null) {
                client.configMaps().inNamespace(namespace).resource(backupOf(node, uid, json)).create();
            } else if (!uid.equals(backedUpUid)
                    || !json.equals(existing.getData() == null ? null : existing.getData().get(DATA_KEY))) {
                if (!uid.equals(backedUpUid)) {
                    LOG.warn("node {}: replacing the backup of an earlier Node object of that name (uid {}) that "
                            + "was never restored with the Node deleted now", node, backedUpUid);
                }
                // update() is guarded by the resourceVersion read: a concurrent writer makes it 409
                client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder(backupOf(node, uid, json))
                        .editMetadata().withResourceVersion(existing.getMetadata().getResourceVersion())
                        .endMetadata().build()).update();
            }
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                return false;
            }
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND || e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
                throw new IllegalStateException("cannot back up node " + node + ", so it is not deleted: ConfigMap "
                        + where(node) + " cannot be written (HTTP " + e.getCode() + "); create namespace "
                        + namespace + " and let remedy write ConfigMaps there, or set another backup namespace", e);
            }
            throw NodeEdits.failure("back up node " + node + " to ConfigMap " + where(node)
                    + " (the node is not deleted)", e);
        }
    }

    private ConfigMap backupOf(String node, String uid, String json) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(namespace).withName(configMapName(node))
                .addToLabels(MANAGED_BY, "remedy").addToLabels(BACKUP_LABEL, "true")
                .addToAnnotations(NODE_ANNOTATION, node).addToAnnotations(UID_ANNOTATION, uid)
                .endMetadata().withData(Map.of(DATA_KEY, json)).build();
    }

    /** What a backup keeps of a Node: its name, labels, annotations and spec. */
    private static Node kept(Node node) {
        return new NodeBuilder().withApiVersion("v1").withKind("Node").withNewMetadata()
                .withName(node.getMetadata().getName())
                .withLabels(node.getMetadata().getLabels())
                .withAnnotations(node.getMetadata().getAnnotations())
                .endMetadata().withSpec(node.getSpec()).build();
    }

    private Node saved(String node, ConfigMap backup) {
        String json = backup.getData() == null ? null : backup.getData().get(DATA_KEY);
        Node saved = null;
        try {
            saved = json == null ? null : client.getKubernetesSerialization().unmarshal(json, Node.class);
        } catch (RuntimeException e) {
            LOG.debug("backup of node {} is unreadable", node, e);
        }
        if (saved == null || saved.getMetadata() == null || !node.equals(saved.getMetadata().getName())) {
            throw new IllegalStateException("cannot restore node " + node + ": ConfigMap " + where(node)
                    + " holds no readable Node named " + node + " under key " + DATA_KEY
                    + "; repair it, or delete it to give up the restore");
        }
        return saved;
    }

    private String where(String node) {
        return namespace + "/" + configMapName(node);
    }

    private static String annotation(ConfigMap map, String key) {
        Map<String, String> annotations = map.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }

    private static io.fabric8.kubernetes.api.model.ObjectReference reference(String node, String uid) {
        return new ObjectReferenceBuilder(References.node(node)).withUid(uid).build();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
