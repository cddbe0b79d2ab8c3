package dev.remedy.core.flow;

/** What the flow asks of the cluster, through {@link dev.remedy.core.engine.ClusterOperations}. All idempotent. */
public enum ClusterAction {
    /** Cordon the node and add remedy's NoSchedule taint. */
    ISOLATE,
    /**
     * The node is verified off: force-delete its pods, and add the out-of-service taint or delete the Node object
     * (see {@link ReleaseStrategy}).
     */
    RELEASE_WORKLOADS,
    /** Undo the release before the node can run again: remove the out-of-service taint, or restore the Node object. */
    LIFT_OUT_OF_SERVICE,
    /** Uncordon the node and remove remedy's taints. */
    RECOVER
}
