package dev.remedy.fence.kube.operator.internal;

import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner;
import dev.remedy.fence.kube.ha.NodeRemediationLease;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a remedy only once the node's medik8s remediation Lease is taken ({@link NodeRemediationLease#acquire}), so
 * that remedy and another remediator never act on one node at once; the Lease is given back when the flow finishes
 * (the Lease is also a listener of the engine). While an external remedy runs the Lease is renewed as its progress
 * is read, and it is given back when the remediation ends with the node healthy and no fence flow of the node is
 * unsettled (as NodeHealthCheck holds it while its remediation objects exist). A start whose Lease another
 * remediator took since storm protection admitted it is not made: the policy counts it running until its timeout
 * escalates.
 */
final class LeasedRunner implements RemedyRunner {

    private static final Logger LOG = LoggerFactory.getLogger(LeasedRunner.class);

    private final RemedyRunner runner;
    private final NodeRemediationLease leases;
    private final Predicate<String> flowSettled;

    /** {@code flowSettled} says whether a node has no unsettled fence flow (none at all counts as settled). */
    LeasedRunner(RemedyRunner runner, NodeRemediationLease leases, Predicate<String> flowSettled) {
        this.runner = runner;
        this.leases = leases;
        this.flowSettled = flowSettled;
    }

    @Override
    public void start(String node, Remedy remedy, String reason) {
        start(node, remedy, reason, Duration.ZERO);
    }

    @Override
    public void start(String node, Remedy remedy, String reason, Duration raceDelay) {
        Optional<String> refused = leases.acquire(node);
        if (refused.isPresent()) {
            LOG.warn("node {}: remedy {} not started: {}", node, remedy.name(), refused.get());
            return;
        }
        runner.start(node, remedy, reason, raceDelay);
    }

    @Override
    public Progress progress(String node, Remedy remedy) {
        if (remedy instanceof Remedy.External) {
            leases.renewIfDue(node);
        }
        return runner.progress(node, remedy);
    }

    @Override
    public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
        runner.cancel(node, remedy, cause, reason);
        if (cause == Cancellation.NODE_HEALTHY && remedy instanceof Remedy.External && flowSettled.test(node)) {
            leases.release(node);
        }
    }
}
