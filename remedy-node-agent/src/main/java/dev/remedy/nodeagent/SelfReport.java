package dev.remedy.nodeagent;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One successful read of the API server by a node agent.
 *
 * @param remediation the remediation signal that names this node, described ({@code NodeFence worker-1}), if any
 * @param labels      the node's labels
 * @param nodes       every node of the cluster, this one included: the peers it will ask when the API server is
 *                    out of reach
 */
public record SelfReport(Optional<String> remediation, Map<String, String> labels, List<PeerNode> nodes) {

    /** Validates and copies. */
    public SelfReport {
        Objects.requireNonNull(remediation, "remediation");
        labels = Map.copyOf(labels);
        nodes = List.copyOf(nodes);
    }
}
