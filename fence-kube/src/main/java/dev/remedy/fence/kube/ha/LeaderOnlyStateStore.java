package dev.remedy.fence.kube.ha;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.FenceStateStore;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link FenceStateStore} whose writes ({@link #save}, {@link #delete}) are refused with a
 * {@link NotLeaderException} unless this process holds its shard's Lease as of now ({@link LeaseGuard}). Reads pass.
 * The store's own compare-and-set (a record's version, a custom resource's resourceVersion) still fences every save:
 * a leader that passed the check and then stalled saves nothing once the next leader saved the record.
 *
 * <p>Not {@link AutoCloseable}, on purpose: the engine closes its store when it stops, and the store underneath
 * outlives each term; the host closes it. Thread-safe if the store underneath is.
 */
public final class LeaderOnlyStateStore implements FenceStateStore {

    private final FenceStateStore delegate;
    private final LeaseGuard guard;

    /** Fences the writes of {@code delegate} by {@code guard}. */
    public LeaderOnlyStateStore(FenceStateStore delegate, LeaseGuard guard) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    @Override
    public Optional<NodeFence> load(String node) {
        return delegate.load(node);
    }

    @Override
    public List<NodeFence> loadAll() {
        return delegate.loadAll();
    }

    /**
     * Saves through the store underneath if this process may act now.
     *
     * @throws NotLeaderException if it may not (nothing was written)
     */
    @Override
    public NodeFence save(NodeFence record) {
        guard.check("saving the fence record of node " + record.node() + " (version " + record.version() + ")");
        return delegate.save(record);
    }

    /**
     * Deletes through the store underneath if this process may act now.
     *
     * @throws NotLeaderException if it may not (nothing was deleted)
     */
    @Override
    public void delete(String node) {
        guard.check("deleting the fence record of node " + node);
        delegate.delete(node);
    }

    @Override
    public Map<String, String> lostRecords() {
        return delegate.lostRecords();
    }

    @Override
    public List<String> problems() {
        return delegate.problems();
    }

    @Override
    public String toString() {
        return "LeaderOnlyStateStore[" + delegate + "]";
    }
}
