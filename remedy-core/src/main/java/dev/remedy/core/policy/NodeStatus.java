package dev.remedy.core.policy;

import dev.remedy.core.storm.NodeView;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A node as the cluster reports it: name, labels and conditions.
 *
 * @param name       the node name
 * @param labels     its labels
 * @param conditions its conditions
 */
public record NodeStatus(String name, Map<String, String> labels, List<NodeCondition> conditions) {

    /** The label that marks control-plane nodes. */
    public static final String CONTROL_PLANE_LABEL = "node-role.kubernetes.io/control-plane";
    /** The label older clusters use for control-plane nodes. */
    public static final String MASTER_LABEL = "node-role.kubernetes.io/master";
    /** Label giving a node's fence-race priority: the node with the highest wins a race (fenced last). */
    public static final String PRIORITY_LABEL = "remedy.dev/fence-priority";

    /** Validates and copies. */
    public NodeStatus {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels);
        conditions = List.copyOf(conditions);
    }

    /** The condition of {@code type}, if reported. */
    public Optional<NodeCondition> condition(String type) {
        return Optional.ofNullable(find(type));
    }

    /** The condition of {@code type}, or null: the allocation-free form for evaluations over many nodes. */
    NodeCondition find(String type) {
        for (NodeCondition condition : conditions) {
            if (condition.type().equals(type)) {
                return condition;
            }
        }
        return null;
    }

    /** Whether the node reports {@code Ready=True}. */
    public boolean ready() {
        return condition("Ready").filter(c -> c.status().equals("True")).isPresent();
    }

    /** The management side lost the node: its kubelet stopped posting status ({@code Ready=Unknown}). */
    public boolean disconnected() {
        NodeCondition ready = find("Ready");
        return ready != null && ready.status().equals("Unknown");
    }

    /** The node's fence-race priority, from {@value #PRIORITY_LABEL} (0 when absent or not a number). */
    public int priority() {
        String value = labels.get(PRIORITY_LABEL);
        if (value == null) {
            return 0;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Whether the node is a control-plane node. */
    public boolean controlPlane() {
        return labels.containsKey(CONTROL_PLANE_LABEL) || labels.containsKey(MASTER_LABEL);
    }

    /**
     * This node as storm protection sees it: name and control-plane role from this status, the failure domain from
     * the value of {@code failureDomainLabel} (when given and present), the rest as observed by the caller.
     */
    public NodeView view(Optional<String> failureDomainLabel, boolean unhealthy, boolean remediating,
                         boolean disconnected, int priority) {
        Objects.requireNonNull(failureDomainLabel, "failureDomainLabel");
        Optional<String> domain = failureDomainLabel.map(labels::get).filter(value -> !value.isBlank());
        return new NodeView(name, controlPlane(), unhealthy, remediating, disconnected, domain, priority);
    }
}
