package dev.remedy.fence.kube.ha;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.EffectGuard;
import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.Effect;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.spi.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Whether this process may act, as of now, for one term of leadership of a shard: from the moment it acquired the
 * shard's Lease until that term ends. It may act only while its last successful renewal, measured on its own
 * monotonic clock from before the renewal was sent, is less than the renew deadline old; the renew deadline is
 * shorter than the lease duration, so a leader that is paused or cut off stops acting before any standby can take
 * the Lease over (see the package documentation). A term that ended ({@link ShardLeadership} lost or gave up the
 * Lease) never holds again, even if the same process leads again later: a thread of the old term's engine that
 * wakes up late cannot act for the new one.
 *
 * <p>The engine asks it before each effect ({@link EffectGuard}); {@link LeaderOnlyStateStore} and
 * {@link LeaderOnlyClusterOperations} ask it before each write. Thread-safe; every check is a few volatile reads.
 */
public final class LeaseGuard implements EffectGuard {

    private final String identity;
    private final String lease;
    private final Duration renewDeadline;
    private final TimeSource time;
    private final Supplier<OptionalLong> lastRenewNanos;
    private volatile boolean ended;

    /**
     * A guard for one term.
     *
     * @param identity       this process's identity
     * @param lease          the Lease, as {@code namespace/name}
     * @param renewDeadline  how long after a renewal acting is allowed
     * @param time           the monotonic clock
     * @param lastRenewNanos the reading of {@code time} taken before the last successful renewal, if any
     */
    LeaseGuard(String identity, String lease, Duration renewDeadline, TimeSource time,
               Supplier<OptionalLong> lastRenewNanos) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.lease = Objects.requireNonNull(lease, "lease");
        this.renewDeadline = Objects.requireNonNull(renewDeadline, "renewDeadline");
        this.time = Objects.requireNonNull(time, "time");
        this.lastRenewNanos = Objects.requireNonNull(lastRenewNanos, "lastRenewNanos");
    }

    /** This process's identity, the Lease's holder while it leads. */
    public String identity() {
        return identity;
    }

    /** The shard's Lease, as {@code namespace/name}. */
    public String lease() {
        return lease;
    }

    /** Whether this process may act now. */
    public boolean holds() {
        return why().isEmpty();
    }

    /** Empty if this process may act now; otherwise why not. */
    public Optional<String> why() {
        if (ended) {
            return Optional.of("its term as leader ended (the Lease was lost, released or given up)");
        }
        OptionalLong last = lastRenewNanos.get();
        if (last.isEmpty()) {
            return Optional.of("it does not hold the Lease (no renewal as holder)");
        }
        long age = time.nanoTime() - last.getAsLong();
        if (age >= renewDeadline.toNanos()) {
            return Optional.of("its last renewal was " + Duration.ofNanos(age).toMillis() + " ms ago, and it may act"
                    + " only within the renew deadline of " + renewDeadline.toMillis() + " ms after a renewal");
        }
        return Optional.empty();
    }

    /**
     * Refuses {@code action} unless this process may act now.
     *
     * @param action what is about to be done, for the message ({@code "cordon of node n1"})
     * @throws NotLeaderException naming the action, the Lease and why
     */
    public void check(String action) {
        Optional<String> why = why();
        if (why.isPresent()) {
            throw new NotLeaderException(identity, lease, action + " refused: " + notHolding(why.get())
                    + "; the shard's current leader does it");
        }
    }

    @Override
    public Optional<String> refusal(Effect effect) {
        return why().map(why -> notHolding(why) + "; the shard's current leader runs the operation");
    }

    private String notHolding(String why) {
        return "this process ('" + identity + "') does not hold Lease " + lease + " as of now: " + why;
    }

    /**
     * Fences an engine builder by this guard: sets its store to {@code store} and its cluster to {@code cluster},
     * each wrapped to refuse writes unless this process may act, and its effect guard to this guard.
     *
     * @return {@code builder}, for agents, plans and the rest
     */
    public FenceEngine.Builder fence(FenceEngine.Builder builder, FenceStateStore store, ClusterOperations cluster) {
        return builder.store(new LeaderOnlyStateStore(store, this))
                .cluster(new LeaderOnlyClusterOperations(cluster, this)).effectGuard(this);
    }

    /** Ends the term: from now on this guard refuses everything. */
    void end() {
        ended = true;
    }

    /** Whether the term ended. */
    boolean ended() {
        return ended;
    }

    @Override
    public String toString() {
        return "LeaseGuard[" + identity + " on " + lease + (ended ? ", ended" : "") + "]";
    }
}
