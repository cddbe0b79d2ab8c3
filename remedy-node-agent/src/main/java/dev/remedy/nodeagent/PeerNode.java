package dev.remedy.nodeagent;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A node as a peer: its name, labels (for its failure domains) and the address its agent is reached at.
 *
 * @param name    the node's name
 * @param labels  the node's labels
 * @param address the node's {@code InternalIP} (else its first address), if it has one
 */
public record PeerNode(String name, Map<String, String> labels, Optional<String> address) {

    /** Validates and copies. */
    public PeerNode {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels);
        Objects.requireNonNull(address, "address");
    }
}
