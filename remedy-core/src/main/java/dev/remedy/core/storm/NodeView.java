package dev.remedy.core.storm;

import java.util.Objects;
import java.util.Optional;

/**
 * What storm protection needs to know about one node of a pool, as the caller observed it.
 *
 * <p>A node counts as <em>healthy</em> only if it matches no unhealthy condition <em>and</em> has no remediation
 * in progress (medik8s): see {@link #healthy()}.
 *
 * @param name          the node name
 * @param controlPlane  whether it is a control-plane node
 * @param unhealthy     whether it matches an unhealthy condition of the policy
 * @param remediating   whether a remediation (a fence flow) is in progress for it
 * @param disconnected  whether the management side lost connectivity to it (no heartbeat, unreachable)
 * @param failureDomain the value of its failure-domain label (rack, switch), if it has one
 * @param priority      its fence-race priority: a node whose priority is higher than every other node's is
 *                      fenced with the extra priority delay, so that it wins a fence race
 */
public record NodeView(String name, boolean controlPlane, boolean unhealthy, boolean remediating,
                       boolean disconnected, Optional<String> failureDomain, int priority) {

    /** Validates the name and the failure domain. */
    public NodeView {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(failureDomain, "failureDomain of node " + name);
        if (name.isBlank()) {
            throw new IllegalArgumentException("a node name must not be blank");
        }
        if (failureDomain.filter(String::isBlank).isPresent()) {
            throw new IllegalArgumentException("the failure domain of node " + name + " must not be blank");
        }
    }

    /** A worker node with no failure domain, priority 0, connected, not remediating. */
    public static NodeView of(String name, boolean unhealthy) {
        return new NodeView(name, false, unhealthy, false, false, Optional.empty(), 0);
    }

    /** Healthy: matches no unhealthy condition and has no remediation in progress. */
    public boolean healthy() {
        return !unhealthy && !remediating;
    }

    /** This view with a remediation in progress. */
    public NodeView asRemediating() {
        return remediating ? this : new NodeView(name, controlPlane, unhealthy, true, disconnected, failureDomain,
                priority);
    }
}
