package dev.remedy.fence.kube.cluster;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.Taint;
import dev.remedy.fence.kube.cluster.internal.NodeBackups;
import dev.remedy.fence.kube.cluster.internal.NodeEdits;
import dev.remedy.fence.kube.cluster.internal.NodePods;
import dev.remedy.fence.kube.cluster.internal.WorkloadRelease;
import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * {@link ClusterOperations} on a Kubernetes API server, through the host's {@link KubernetesClient}.
 *
 * <ul>
 *   <li>cordon and uncordon: a JSON merge patch of {@code spec.unschedulable} alone;</li>
 *   <li>taints: read-modify-write of {@code spec.taints} guarded by the Node's resourceVersion, read again and
 *       retried on 409 Conflict, so a taint someone else changes meanwhile is kept; the out-of-service taint (any
 *       {@code NoExecute} taint) gets {@code timeAdded}; removal matches key, value and effect;</li>
 *   <li>{@link #deletePods}: force-deletes (grace period 0) the node's pods in every namespace, listed with the
 *       field selector {@code spec.nodeName} a page at a time; pods are never watched;</li>
 *   <li>{@link #awaitWorkloadsReleased}: polls until no pod of the node is terminating and no
 *       {@code storage.k8s.io/v1} VolumeAttachment names it (deleting those only when
 *       {@link Builder#deleteStaleVolumeAttachments(boolean) allowed}), bounded by {@link Builder#releaseTimeout(Duration)};</li>
 *   <li>{@link #deleteNode} writes a ConfigMap backup in the {@link Builder#backupNamespace(String) backup namespace} before
 *       it deletes the Node; {@link #restoreNode} re-creates the Node from it and removes the backup once the Node
 *       exists again. A restarted engine restores from the backup an earlier instance wrote.</li>
 * </ul>
 *
 * <p>It needs RBAC to get, patch and delete Nodes, create Nodes, list and delete Pods in all namespaces, list (and,
 * when allowed, delete) VolumeAttachments, and get, create, update and delete ConfigMaps in the backup namespace.
 * Thread-safe; every method blocks on the API server (fabric8's request timeouts apply).
 */
public final class KubeClusterOperations implements ClusterOperations {

    /** The default namespace of node backups. */
    public static final String DEFAULT_BACKUP_NAMESPACE = "remedy";
    /** The default bound on {@link #awaitWorkloadsReleased}. */
    public static final Duration DEFAULT_RELEASE_TIMEOUT = Duration.ofMinutes(5);
    /** The default number of pods per list request. */
    public static final int DEFAULT_POD_PAGE_SIZE = 500;
    /** The default pause between two looks while waiting for a release. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private final NodeEdits edits;
    private final WorkloadRelease release;
    private final NodeBackups backups;

    private KubeClusterOperations(Builder builder) {
        this.edits = new NodeEdits(builder.client, builder.time);
        NodePods pods = builder.pods != null ? builder.pods : NodePods.byFieldSelector(builder.client);
        this.release = new WorkloadRelease(builder.client, pods, new WorkloadRelease.Settings(builder.podPageSize,
                builder.releaseTimeout, builder.pollInterval, builder.deleteStaleVolumeAttachments), builder.time,
                builder.events);
        this.backups = new NodeBackups(builder.client, builder.backupNamespace, builder.events);
    }

    /** A builder on the host's {@code client}, with every default. */
    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /** Sets {@code spec.unschedulable}; fails if the Node does not exist. */
    @Override
    public void cordon(String node) {
        edits.setUnschedulable(node, true);
    }

    /** Removes {@code spec.unschedulable}; fails if the Node does not exist. */
    @Override
    public void uncordon(String node) {
        edits.setUnschedulable(node, false);
    }

    /** Adds the taint unless it is there; fails if the Node does not exist. */
    @Override
    public void addTaint(String node, Taint taint) {
        edits.addTaint(node, taint);
    }

    /** Removes the taint (key, value and effect) if it is there; a Node that does not exist has none. */
    @Override
    public void removeTaint(String node, Taint taint) {
        edits.removeTaint(node, taint);
    }

    @Override
    public void deletePods(String node) {
        release.deletePods(node);
    }

    @Override
    public void awaitWorkloadsReleased(String node) {
        release.awaitReleased(node);
    }

    @Override
    public void deleteNode(String node) {
        backups.deleteNode(node);
    }

    @Override
    public void restoreNode(String node) {
        backups.restoreNode(node);
    }

    /** The name of the backup ConfigMap of {@code node} in the backup namespace. */
    public static String backupName(String node) {
        return NodeBackups.configMapName(node);
    }

    /** Settings of {@link KubeClusterOperations}; every setter validates at once and names the setting. */
    public static final class Builder {

        private final KubernetesClient client;
        private String backupNamespace = DEFAULT_BACKUP_NAMESPACE;
        private Duration releaseTimeout = DEFAULT_RELEASE_TIMEOUT;
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        private boolean deleteStaleVolumeAttachments;
        private int podPageSize = DEFAULT_POD_PAGE_SIZE;
        private TimeSource time = TimeSource.system();
        private KubeEvents events = KubeEvents.NONE;
        private NodePods pods;

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /** The namespace of the node backup ConfigMaps (default {@value KubeClusterOperations#DEFAULT_BACKUP_NAMESPACE}); it must exist. */
        public Builder backupNamespace(String namespace) {
            Objects.requireNonNull(namespace, "backupNamespace");
            if (!DNS_LABEL.matcher(namespace).matches()) {
                throw new IllegalArgumentException("backupNamespace must be a namespace name (lowercase letters, "
                        + "digits and '-', at most 63 characters), got '" + namespace + "'");
            }
            this.backupNamespace = namespace;
            return this;
        }

        /** The bound on {@link KubeClusterOperations#awaitWorkloadsReleased} (default 5 minutes). */
        public Builder releaseTimeout(Duration timeout) {
            this.releaseTimeout = positive("releaseTimeout", timeout);
            return this;
        }

        /** The pause between two looks while waiting for a release (default 1 second). */
        public Builder pollInterval(Duration interval) {
            this.pollInterval = positive("pollInterval", interval);
            return this;
        }

        /**
         * Whether VolumeAttachments that name a released node (verified off) may be deleted so that its volumes
         * attach elsewhere (default {@code false}: wait for the attach/detach controller).
         */
        public Builder deleteStaleVolumeAttachments(boolean allowed) {
            this.deleteStaleVolumeAttachments = allowed;
            return this;
        }

        /** How many pods (and VolumeAttachments) one list request asks for (default 500). */
        public Builder podPageSize(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("podPageSize must be at least 1, got " + size);
            }
            this.podPageSize = size;
            return this;
        }

        /** The clock of the release wait and of {@code timeAdded} (default the system clock). */
        public Builder time(TimeSource source) {
            this.time = Objects.requireNonNull(source, "time");
            return this;
        }

        /** Where node deletions, restores and VolumeAttachment deletions are reported (default none). */
        public Builder events(KubeEvents sink) {
            this.events = Objects.requireNonNull(sink, "events");
            return this;
        }

        /** Replaces how a node's pods are listed: for a test server that has no field selector. */
        Builder pods(NodePods listing) {
            this.pods = Objects.requireNonNull(listing, "pods");
            return this;
        }

        /** The operations. */
        public KubeClusterOperations build() {
            return new KubeClusterOperations(this);
        }

        private static Duration positive(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, got " + value);
            }
            return value;
        }
    }
}
