package dev.remedy.core.rules;

import java.util.Objects;
import java.util.Optional;

/**
 * A cluster node that can be asked about another node's health.
 *
 * @param name          the node's name, unique in the cluster
 * @param failureDomain the node's failure domain (rack, switch or zone label value), if labelled
 */
public record Peer(String name, Optional<String> failureDomain) {

    /** Validates the fields. */
    public Peer {
        Texts.requireText(name, "name");
        Objects.requireNonNull(failureDomain, "failureDomain");
        failureDomain.ifPresent(d -> Texts.requireText(d, "failureDomain"));
    }

    /**
     * A peer without a failure domain.
     *
     * @param name the node's name
     * @return the peer
     */
    public static Peer of(String name) {
        return new Peer(name, Optional.empty());
    }

    /**
     * A peer in a failure domain.
     *
     * @param name          the node's name
     * @param failureDomain the domain
     * @return the peer
     */
    public static Peer of(String name, String failureDomain) {
        return new Peer(name, Optional.of(failureDomain));
    }
}
