package dev.remedy.core.flow;

import java.util.Arrays;

/**
 * What the flow asks of the cluster, through {@link dev.remedy.core.engine.ClusterOperations}. All idempotent.
 * {@link #code()} is the persisted form.
 */
public enum ClusterAction {
    /** Cordon the node and add remedy's NoSchedule taint. */
    ISOLATE("isolate"),
    /**
     * The node is verified off: force-delete its pods, and add the out-of-service taint or delete the Node object
     * (see {@link ReleaseStrategy}).
     */
    RELEASE_WORKLOADS("release_workloads"),
    /**
     * The node is isolated, and its topology releases after isolation: force-delete its pods, never adding the
     * out-of-service taint (the machine may still run) nor deleting the Node object.
     */
    RELEASE_PODS("release_pods"),
    /** Undo the release before the node can run again: remove the out-of-service taint, or restore the Node object. */
    LIFT_OUT_OF_SERVICE("lift_out_of_service"),
    /** Uncordon the node and remove remedy's taints. */
    RECOVER("recover");

    private final String code;

    ClusterAction(String code) {
        this.code = code;
    }

    /** The stable persisted name. */
    public String code() {
        return code;
    }

    /** The action with this code. */
    public static ClusterAction fromCode(String code) {
        return Arrays.stream(values()).filter(a -> a.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown cluster action '" + code + "'"));
    }
}
