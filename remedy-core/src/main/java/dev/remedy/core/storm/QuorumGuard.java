package dev.remedy.core.storm;

import java.util.Optional;

/**
 * Decides whether a control-plane node may be fenced without endangering the control plane's quorum (etcd,
 * API servers). Consulted by {@link StormGuard} only for control-plane nodes, after every other rule but the
 * rate limits passed. Must be fast and must not block; an exception counts as a veto.
 */
@FunctionalInterface
public interface QuorumGuard {

    /**
     * Why {@code node} must not be fenced now, or empty to allow it.
     *
     * @param node the control-plane node to fence, as seen in {@code pool}
     * @param pool the pool, including the remediations the guard recorded that the observation does not show
     */
    Optional<String> veto(NodeView node, PoolView pool);

    /** The default: allow unless another control-plane node is being remediated. */
    static QuorumGuard oneAtATime() {
        return (node, pool) -> {
            int others = pool.controlPlaneRemediating() - (node.remediating() ? 1 : 0);
            return others > 0
                    ? Optional.of(others + " other control-plane node(s) are being remediated")
                    : Optional.empty();
        };
    }

    /**
     * Allow only if, without {@code node}, a strict majority of the control-plane nodes stays healthy: with 3
     * control-plane nodes, 2 must stay healthy.
     */
    static QuorumGuard majority() {
        return (node, pool) -> {
            int total = pool.controlPlaneTotal();
            int healthyWithout = pool.controlPlaneHealthy() - (node.healthy() ? 1 : 0);
            int needed = total / 2 + 1;
            return healthyWithout < needed
                    ? Optional.of("fencing it would leave " + healthyWithout + " of " + total
                            + " control-plane nodes healthy, a majority needs " + needed)
                    : Optional.empty();
        };
    }
}
