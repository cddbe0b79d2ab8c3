package dev.remedy.fence.kube.remediation;

import java.util.Optional;

/**
 * The seam for NodeFenceRemediations with {@code spec.strategy} set (the escalation strategy: power off, wait, delete
 * after retries), which another driver runs. {@link RemediationController} keeps its finalizer on such a remediation
 * and otherwise leaves it to this driver: it calls {@link #remediate} at each pass and {@link #cleanUp} when the
 * remediation is deleted, before dropping its finalizer. Called from the controller's single thread; must not block
 * for long.
 */
public interface StrategyRemediator {

    /**
     * No driver: every strategy is refused with a message, which the controller writes as the remediation's
     * {@code Succeeded=False} condition (so NodeHealthCheck escalates to its next remediator).
     */
    StrategyRemediator NOT_SUPPORTED = (remediation, node) -> Optional.of("spec.strategy "
            + remediation.getSpec().getStrategy() + " is not supported by this operator (no escalation driver is "
            + "plugged in); remove spec.strategy to fence the node as FenceAgentsRemediation does");

    /**
     * One pass over {@code remediation} of {@code node}.
     *
     * @return empty if the driver takes it (it writes the status itself); otherwise why it cannot
     */
    Optional<String> remediate(NodeFenceRemediation remediation, String node);

    /** {@code remediation} of {@code node} is being deleted: stop and undo what must not outlive it. */
    default void cleanUp(NodeFenceRemediation remediation, String node) {
    }
}
