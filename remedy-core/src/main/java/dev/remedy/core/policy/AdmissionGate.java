package dev.remedy.core.policy;

import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/**
 * Decides whether a remediation may start now (storm protection). Returns empty to admit, or the reason for
 * holding it back; the controller asks again at its next evaluation.
 */
@FunctionalInterface
public interface AdmissionGate {

    /** Admits everything. */
    AdmissionGate OPEN = (node, policy, pool, unhealthy, remediating, now) -> Optional.empty();

    /**
     * Whether {@code node} may start a remedy of {@code policy} now.
     *
     * @param node        the node
     * @param policy      the policy
     * @param pool        every node the policy covers
     * @param unhealthy   how many of them are unhealthy
     * @param remediating how many are being remediated
     * @param now         the time
     * @return empty to admit; otherwise why not
     */
    Optional<String> holdBack(String node, Policy policy, Collection<NodeStatus> pool, int unhealthy, int remediating,
                              Instant now);
}
