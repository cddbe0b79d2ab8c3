package dev.remedy.core.rules;

/**
 * The node a remediation is for, when it belongs to no Cluster API Machine.
 *
 * @param name         the node's name
 * @param controlPlane whether it is a control-plane node
 */
public record NodeRef(String name, boolean controlPlane) {

    /** Validates the fields. */
    public NodeRef {
        Texts.requireText(name, "name");
    }
}
