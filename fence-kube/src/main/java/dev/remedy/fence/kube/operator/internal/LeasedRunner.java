package dev.remedy.fence.kube.operator.internal;

import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner;
import dev.remedy.fence.kube.ha.NodeRemediationLease;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a remedy only once the node's medik8s remediation Lease is taken ({@link NodeRemediationLease#acquire}), so
 * that remedy and another remediator never act on one node at once; the Lease is given back when the flow finishes
 * (the Lease is also a listener of the engine). A start whose Lease another remediator took since storm protection
 * admitted it is not made: the policy counts it running until its timeout escalates.
 */
final class LeasedRunner implements RemedyRunner {

    private static final Logger LOG = LoggerFactory.getLogger(LeasedRunner.class);

    private final RemedyRunner runner;
    private final NodeRemediationLease leases;

    LeasedRunner(RemedyRunner runner, NodeRemediationLease leases) {
        this.runner = runner;
        this.leases = leases;
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
        return runner.progress(node, remedy);
    }

    @Override
    public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
        runner.cancel(node, remedy, cause, reason);
    }
}
