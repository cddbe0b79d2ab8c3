package dev.remedy.fence.kube.ha.internal;

import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A {@link Lock} that remembers, on this process's monotonic clock, when it last wrote the lease as its holder: the
 * reading taken <em>before</em> the successful create or update was sent, so the lease the server holds was renewed
 * no earlier than that. A write that names another holder (a release) forgets it. Thread-safe.
 */
public final class RenewTrackingLock implements Lock {

    private final Lock delegate;
    private final TimeSource time;
    /** The monotonic reading before the last successful write as holder; null when there is none. */
    private volatile Long lastRenewNanos;

    /** Tracks the writes of {@code delegate} on {@code time}'s monotonic clock. */
    public RenewTrackingLock(Lock delegate, TimeSource time) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.time = Objects.requireNonNull(time, "time");
    }

    /** The monotonic reading taken before the last successful renewal as holder, if it still holds. */
    public OptionalLong lastRenewNanos() {
        Long last = lastRenewNanos;
        return last == null ? OptionalLong.empty() : OptionalLong.of(last);
    }

    @Override
    public LeaderElectionRecord get(KubernetesClient client) {
        return delegate.get(client);
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {
        long sent = time.nanoTime();
        delegate.create(client, record);
        wrote(record, sent);
    }

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {
        long sent = time.nanoTime();
        if (!identity().equals(record.getHolderIdentity())) {
            lastRenewNanos = null; // a release: stop acting before the write, not after
        }
        delegate.update(client, record);
        wrote(record, sent);
    }

    @Override
    public String identity() {
        return delegate.identity();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    private void wrote(LeaderElectionRecord record, long sent) {
        lastRenewNanos = identity().equals(record.getHolderIdentity()) ? sent : null;
    }
}
