package dev.remedy.fence.kube.ha;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.Taint;
import java.util.Objects;

/**
 * {@link ClusterOperations} that refuse every call with a {@link NotLeaderException} unless this process holds its
 * shard's Lease as of now ({@link LeaseGuard}); the engine records the refusal as a failed operation, which it
 * cannot save either. Checked before each call, so that of a cluster action of two calls (cordon, then taint) the
 * second is refused too when the Lease lapsed between them. Thread-safe if the operations underneath are.
 */
public final class LeaderOnlyClusterOperations implements ClusterOperations {

    private final ClusterOperations delegate;
    private final LeaseGuard guard;

    /** Fences every call of {@code delegate} by {@code guard}. */
    public LeaderOnlyClusterOperations(ClusterOperations delegate, LeaseGuard guard) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /** {@inheritDoc} Refused with a {@link NotLeaderException} unless this process may act now. */
    @Override
    public void cordon(String node) {
        guard.check("cordon of node " + node);
        delegate.cordon(node);
    }

    /** {@inheritDoc} Refused with a {@link NotLeaderException} unless this process may act now. */
    @Override
    public void uncordon(String node) {
        guard.check("uncordon of node " + node);
        delegate.uncordon(node);
    }

    /** {@inheritDoc} Refused with a {@link NotLeaderException} unless this process may act now. */
    @Override
    public void addTaint(String node, Taint taint) {
        guard.check("adding taint " + taint.key() + " to node " + node);
        delegate.addTaint(node, taint);
    }

    /** {@inheritDoc} Refused with a {@link NotLeaderException} unless this process may act now. */
    @Override
    public void removeTaint(String node, Taint taint) {
        guard.check("removing taint " + taint.key() + " from node " + node);
        delegate.removeTaint(node, taint);
    }

    /** {@inheritDoc} Refused with a {@link NotLeaderException} unless this process may act now. */
    @Override
    public void deletePods(String node) {
        guard.check("deleting the pods of node " + node);
        delegate.deletePods(node);
    }

    /**
     * {@inheritDoc} Passed on (the interface's default does nothing, which would skip the wait); refused with a
     * {@link NotLeaderException} unless this process may act now, as it may delete VolumeAttachments.
     */
    @Override
    public void awaitWorkloadsReleased(String node) {
        guard.check("waiting for the workloads of node " + node + " to be released");
        delegate.awaitWorkloadsReleased(node);
    }

    /** {@inheritDoc} Refused with a {@link NotLeaderException} unless this process may act now. */
    @Override
    public void deleteNode(String node) {
        guard.check("deleting node " + node);
        delegate.deleteNode(node);
    }

    /** {@inheritDoc} Refused with a {@link NotLeaderException} unless this process may act now. */
    @Override
    public void restoreNode(String node) {
        guard.check("restoring node " + node);
        delegate.restoreNode(node);
    }

    @Override
    public String toString() {
        return "LeaderOnlyClusterOperations[" + delegate + "]";
    }
}
