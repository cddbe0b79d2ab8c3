package dev.remedy.core.flow;

/** What the flow asks of the cluster, through {@link dev.remedy.core.engine.ClusterOperations}. All idempotent. */
public enum ClusterAction {
    /** Cordon the node and add remedy's NoSchedule taint. */
    ISOLATE,
    /** The node is verified off: add the out-of-service taint and force-delete its pods. */
    RELEASE_WORKLOADS,
    /** Remove the out-of-service taint (before the node can run again). */
    LIFT_OUT_OF_SERVICE,
    /** Uncordon the node and remove remedy's taints. */
    RECOVER
}
