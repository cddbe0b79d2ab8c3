package dev.remedy.core.flow;

/** How a confirmed-off node's workloads are released (and how the release is undone before power on). */
public enum ReleaseStrategy {
    /**
     * Kubernetes non-graceful node shutdown: add {@code node.kubernetes.io/out-of-service} and force-delete the
     * node's pods; the taint is lifted before the node is powered on, so it is only there while the node is off.
     */
    OUT_OF_SERVICE_TAINT,
    /**
     * Force-delete the pods and delete the Node object (its labels and annotations backed up by the
     * {@link dev.remedy.core.engine.ClusterOperations} implementation); the object is restored before power on.
     */
    DELETE_NODE
}
