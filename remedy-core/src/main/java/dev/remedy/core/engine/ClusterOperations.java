package dev.remedy.core.engine;

/**
 * The cluster as the engine changes it. Implemented by remedy-test's simulated cluster and by fence-kube;
 * remedy-test's {@code ClusterOperationsContract} checks every promise made here.
 * Every method is idempotent (cordoning a cordoned node succeeds) and blocking; a failure is an exception whose
 * message says what failed, which the engine records and retries.
 */
public interface ClusterOperations {

    /** Marks the node unschedulable. */
    void cordon(String node);

    /** Marks the node schedulable again. */
    void uncordon(String node);

    /** Adds {@code taint} to the node unless it is there. */
    void addTaint(String node, Taint taint);

    /** Removes {@code taint} from the node if it is there. */
    void removeTaint(String node, Taint taint);

    /** Force-deletes every pod bound to the node (the node is verified off). */
    void deletePods(String node);

    /**
     * Blocks until the node's workloads are released: no pod bound to the node is terminating and no volume is
     * still attached to it (on Kubernetes: no {@code storage.k8s.io/v1} VolumeAttachment names it). The engine calls
     * it at the end of a release, after {@link #deletePods}, so that a pod's replacement never starts while its
     * volumes are still attached to the fenced node. The wait is bounded by the implementation's setting; a node
     * without pods returns at once.
     *
     * <p>The default does nothing: for clusters whose pods and volumes are gone as soon as they are deleted.
     *
     * @throws IllegalStateException if the bound passes first, with a message naming what is still there (the
     *                               engine records it and retries the release)
     */
    default void awaitWorkloadsReleased(String node) {
    }

    /**
     * Deletes the Node object after keeping a durable backup of its labels and annotations (the node is verified
     * off). Idempotent: deleting a deleted node succeeds and keeps the first backup.
     */
    void deleteNode(String node);

    /** Re-creates the Node object from the backup {@link #deleteNode} kept. Idempotent; no backup means nothing to do. */
    void restoreNode(String node);
}
