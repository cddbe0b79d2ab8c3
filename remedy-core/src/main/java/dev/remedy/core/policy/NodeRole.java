package dev.remedy.core.policy;

/** Which kind of node a policy covers: control-plane and worker nodes are never mixed in one policy. */
public enum NodeRole {
    /** Nodes without a control-plane label. */
    WORKER,
    /** Nodes with the control-plane (or master) label. */
    CONTROL_PLANE;

    /** Whether {@code node} has this role. */
    public boolean of(NodeStatus node) {
        return node.controlPlane() == (this == CONTROL_PLANE);
    }
}
