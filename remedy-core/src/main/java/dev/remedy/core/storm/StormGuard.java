package dev.remedy.core.storm;

import dev.remedy.core.storm.Admission.Admitted;
import dev.remedy.core.storm.Admission.Held;
import dev.remedy.core.storm.Admission.Reason;
import dev.remedy.core.storm.Admission.Refused;
import dev.remedy.core.time.Deadlines;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Storm protection for one pool: decides whether a new fence may start. One guard per pool.
 *
 * <p>Rules, in this order, the first that applies decides (each denial names its rule):
 * quiet period (held), connectivity loss (refused), shared infrastructure (refused), storm threshold (refused)
 * and storm cooldown (held), max concurrent (held), one control-plane node at a time (held), quorum guard
 * (refused), fences per window (held), pod deletions per window (held). An admission carries the fence-race
 * delay: {@code raceDelayBase + uniform(0..raceDelayRandomMax) + (highest priority ? priorityDelay : 0)}.
 *
 * <p>Time is always passed in. The guard remembers: when the engine started, whether the pool is in a storm and
 * since when it is back within its threshold, which failure domains are suspect, the fences and pod deletions
 * of the rate windows, and the fences it recorded that the caller's view may not show yet (they count as
 * remediations in progress until a view shows the node remediating, or {@link #recordFinished} is called).
 * Pass views in the order they were observed.
 *
 * <p>Thread-safe: every method holds one lock; signals are delivered after it is released, on the calling
 * thread. Deterministic for a given random generator and sequence of calls.
 */
public final class StormGuard {

    private static final Logger LOG = LoggerFactory.getLogger(StormGuard.class);

    private final StormSettings settings;
    private final RandomGenerator random;
    private final QuorumGuard quorumGuard;
    private final StormListener listener;
    private final Object lock = new Object();
    private final SlidingWindow fences;
    private final SlidingWindow podDeletions;
    private final Set<String> inFlight = new LinkedHashSet<>();
    /** When each node was last admitted, while its nodeCooldown runs (pruned on every admission). */
    private final Map<String, Instant> lastAdmitted = new HashMap<>();
    private final TreeMap<String, String> suspected = new TreeMap<>();
    private Instant startedAt;
    private boolean storm;
    private Instant withinSince;

    /**
     * A guard.
     *
     * @param settings    the limits
     * @param random      the source of the random fence-race delay (seed it in tests)
     * @param quorumGuard consulted for control-plane nodes
     * @param listener    receives storm, shared-infrastructure and denial signals
     */
    public StormGuard(StormSettings settings, RandomGenerator random, QuorumGuard quorumGuard,
                      StormListener listener) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.random = Objects.requireNonNull(random, "random");
        this.quorumGuard = Objects.requireNonNull(quorumGuard, "quorumGuard");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.fences = settings.fencesPerWindow().map(SlidingWindow::new).orElse(null);
        this.podDeletions = settings.podDeletionsPerWindow().map(SlidingWindow::new).orElse(null);
    }

    /** A guard with the {@linkplain QuorumGuard#oneAtATime() default quorum guard} and no listener. */
    public static StormGuard of(StormSettings settings, RandomGenerator random) {
        return new StormGuard(settings, random, QuorumGuard.oneAtATime(), StormListener.NONE);
    }

    /** The limits. */
    public StormSettings settings() {
        return settings;
    }

    /**
     * The engine started at {@code now}: no fencing during the quiet period from then. If never called, the first
     * observation starts the quiet period.
     */
    public void started(Instant now) {
        Objects.requireNonNull(now, "now");
        synchronized (lock) {
            startedAt = now;
        }
    }

    /** Updates the storm and failure-domain state from {@code pool} without asking about a node. */
    public void observe(PoolView pool, Instant now) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(now, "now");
        List<StormSignal> signals = new ArrayList<>(2);
        synchronized (lock) {
            observeLocked(pool, now, signals);
        }
        publish(signals);
    }

    /**
     * Whether {@code node} may be fenced now. Does not record the fence: call {@link #recordFence} when it starts,
     * or use {@link #admitAndRecord} when several threads admit.
     *
     * @throws IllegalArgumentException if the pool has no node called {@code node}
     */
    public Admission admit(String node, PoolView pool, Instant now) {
        return admit(node, pool, now, false);
    }

    /** {@link #admit}, and if admitted, {@link #recordFence} under the same lock. */
    public Admission admitAndRecord(String node, PoolView pool, Instant now) {
        return admit(node, pool, now, true);
    }

    /**
     * A fence of {@code node} started at {@code now}: it counts in the fence window, and as a remediation in
     * progress until a view shows it or {@link #recordFinished} is called.
     */
    public void recordFence(String node, Instant now) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(now, "now");
        synchronized (lock) {
            recordFenceLocked(node, now);
        }
    }

    /** The remediation of {@code node} is over: it no longer counts as in progress unless a view says so. */
    public void recordFinished(String node) {
        Objects.requireNonNull(node, "node");
        synchronized (lock) {
            inFlight.remove(node);
        }
    }

    /**
     * Takes {@code count} pod deletions from the window if it has room for all of them, else takes none.
     *
     * @return whether the deletions may proceed
     * @throws IllegalArgumentException if {@code count} is negative or larger than the whole window's limit
     *                                  (delete in batches of at most {@link #podDeletionsAvailable})
     */
    public boolean tryRecordPodDeletions(int count, Instant now) {
        Objects.requireNonNull(now, "now");
        if (count < 0) {
            throw new IllegalArgumentException("pod deletion count must not be negative, got " + count);
        }
        synchronized (lock) {
            if (podDeletions == null) {
                return true;
            }
            if (count > podDeletions.limit().count()) {
                throw new IllegalArgumentException(count + " pod deletions can never fit podDeletionsPerWindow "
                        + podDeletions.limit() + "; delete in batches of at most podDeletionsAvailable()");
            }
            return podDeletions.tryAcquire(count, now);
        }
    }

    /** How many pod deletions the window can take at {@code now} ({@link Integer#MAX_VALUE} when unlimited). */
    public int podDeletionsAvailable(Instant now) {
        Objects.requireNonNull(now, "now");
        synchronized (lock) {
            return podDeletions == null ? Integer.MAX_VALUE : podDeletions.available(now);
        }
    }

    /** Whether the pool is in a storm (threshold crossed, or cooldown not yet elapsed), as last observed. */
    public boolean inStorm() {
        synchronized (lock) {
            return storm;
        }
    }

    /** The failure domains suspected of a shared-infrastructure failure, as last observed (sorted). */
    public Set<String> suspectedDomains() {
        synchronized (lock) {
            return Collections.unmodifiableSet(new TreeSet<>(suspected.keySet()));
        }
    }

    private Admission admit(String node, PoolView pool, Instant now, boolean record) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(now, "now");
        List<StormSignal> signals = new ArrayList<>(3);
        Admission admission;
        synchronized (lock) {
            if (!pool.contains(node)) {
                throw new IllegalArgumentException("node " + node + " is not in the pool view (" + pool.total()
                        + " nodes); build the view with every node of the pool");
            }
            PoolView view = observeLocked(pool, now, signals);
            admission = decide(view.node(node).orElseThrow(), view, now);
            if (admission instanceof Admission.Denied denied) {
                signals.add(new StormSignal.AdmissionDenied(node, now, denied));
            } else if (record) {
                recordFenceLocked(node, now);
            }
        }
        publish(signals);
        return admission;
    }

    private void recordFenceLocked(String node, Instant now) {
        inFlight.add(node);
        if (!settings.nodeCooldown().isZero()) {
            lastAdmitted.values().removeIf(at -> !now.isBefore(Deadlines.plus(at, settings.nodeCooldown())));
            lastAdmitted.put(node, now);
        }
        if (fences != null) {
            fences.record(1, now);
        }
    }

    private PoolView observeLocked(PoolView pool, Instant now, List<StormSignal> signals) {
        if (startedAt == null) {
            startedAt = now;
        }
        inFlight.removeIf(name -> pool.node(name).filter(NodeView::remediating).isPresent());
        PoolView view = pool.withRemediating(inFlight);
        Optional<String> breach = thresholdBreach(view);
        if (breach.isPresent()) {
            if (!storm) {
                storm = true;
                signals.add(new StormSignal.StormStarted(now, thresholdReason(), breach.get()));
            }
            withinSince = null;
        } else if (storm) {
            if (withinSince == null) {
                withinSince = now;
            }
            if (!now.isBefore(Deadlines.plus(withinSince, settings.stormCooldown()))) {
                storm = false;
                signals.add(new StormSignal.StormEnded(now, "pool within " + thresholdText() + " since "
                        + withinSince + ", longer than stormCooldown " + settings.stormCooldown() + ": "
                        + view.healthy() + " of " + view.total() + " nodes healthy"));
                withinSince = null;
            }
        }
        settings.failureDomainLabel().ifPresent(label -> observeDomains(label, view, now, signals));
        return view;
    }

    private void observeDomains(String label, PoolView view, Instant now, List<StormSignal> signals) {
        TreeMap<String, String> current = new TreeMap<>();
        // Only a domain with domainMinUnhealthy not-healthy nodes can be suspect: the others are not read.
        for (DomainCounts domain : view.domainsNotHealthyAtLeast(settings.domainMinUnhealthy())) {
            domainSuspicion(domain, view).ifPresent(detail -> current.put(domain.value(), detail));
        }
        for (var entry : current.entrySet()) {
            if (!suspected.containsKey(entry.getKey())) {
                signals.add(new StormSignal.SharedInfrastructureSuspected(now, label, entry.getKey(),
                        entry.getValue()));
            }
        }
        for (String value : suspected.keySet()) {
            if (!current.containsKey(value)) {
                DomainCounts counts = view.domain(value).orElse(new DomainCounts(value, 0, 0));
                signals.add(new StormSignal.SharedInfrastructureCleared(now, label, value, "failure domain " + label
                        + "=" + value + " no longer suspect: " + counts.notHealthy() + " of " + counts.total()
                        + " nodes not healthy"));
            }
        }
        suspected.clear();
        suspected.putAll(current);
    }

    private Optional<String> domainSuspicion(DomainCounts domain, PoolView view) {
        int bad = domain.notHealthy();
        if (bad < settings.domainMinUnhealthy()) {
            return Optional.empty();
        }
        boolean ofDomain = settings.domainShareBasis() == StormSettings.DomainShareBasis.OF_DOMAIN_NODES;
        int of = ofDomain ? domain.total() : view.notHealthy();
        if ((double) bad / of < settings.maxDomainShare()) {
            return Optional.empty();
        }
        String label = settings.failureDomainLabel().orElseThrow();
        String counted = ofDomain
                ? bad + " of its " + of + " nodes not healthy (" + percent(bad, of) + ")"
                : bad + " of the pool's " + of + " not-healthy nodes are in it (" + percent(bad, of) + ")";
        return Optional.of("suspect shared infrastructure in " + label + "=" + domain.value() + ": " + counted
                + " reaches maxDomainShare " + percent(settings.maxDomainShare()) + " with at least "
                + settings.domainMinUnhealthy() + " (domainMinUnhealthy)");
    }

    private Admission decide(NodeView node, PoolView view, Instant now) {
        Instant quietEnd = Deadlines.plus(startedAt, settings.quietPeriod());
        if (now.isBefore(quietEnd)) {
            return new Held(Reason.QUIET_PERIOD, "engine started at " + startedAt + "; quietPeriod "
                    + settings.quietPeriod() + " lasts until " + quietEnd, Optional.of(quietEnd));
        }
        int disconnected = view.disconnected();
        if (disconnected > 0 && (double) disconnected / view.total() >= settings.maxDisconnectedShare()) {
            return new Refused(Reason.CONNECTIVITY_LOSS, disconnected + " of " + view.total()
                    + " nodes disconnected (" + percent(disconnected, view.total()) + ") reaches maxDisconnectedShare "
                    + percent(settings.maxDisconnectedShare()) + ": the management side may be the broken one");
        }
        Optional<String> domain = node.failureDomain().filter(suspected::containsKey);
        if (domain.isPresent()) {
            return new Refused(Reason.SHARED_INFRASTRUCTURE, suspected.get(domain.get()));
        }
        Optional<String> breach = thresholdBreach(view);
        if (breach.isPresent()) {
            return new Refused(thresholdReason(), breach.get());
        }
        Optional<UnhealthyRange> range = settings.unhealthyRange().filter(r -> !r.allows(view.notHealthy()));
        if (range.isPresent()) {
            return new Refused(Reason.UNHEALTHY_RANGE, view.notHealthy() + " of " + view.total()
                    + " nodes not healthy is outside unhealthyRange " + range.get());
        }
        if (storm) {
            Instant end = Deadlines.plus(withinSince, settings.stormCooldown());
            return new Held(Reason.STORM_COOLDOWN, "pool back within " + thresholdText() + " since " + withinSince
                    + "; stormCooldown " + settings.stormCooldown() + " lasts until " + end, Optional.of(end));
        }
        int others = view.remediating() - (node.remediating() ? 1 : 0);
        if (others >= settings.maxConcurrent()) {
            return new Held(Reason.MAX_CONCURRENT, others + " remediations in progress in the pool reach maxConcurrent "
                    + settings.maxConcurrent());
        }
        if (node.controlPlane()) {
            int otherControlPlanes = view.controlPlaneRemediating() - (node.remediating() ? 1 : 0);
            if (settings.oneControlPlaneAtATime() && otherControlPlanes > 0) {
                return new Held(Reason.CONTROL_PLANE_BUSY, otherControlPlanes + " other control-plane node(s) being "
                        + "remediated; oneControlPlaneAtATime allows one");
            }
            Optional<String> veto = veto(node, view);
            if (veto.isPresent()) {
                return new Refused(Reason.QUORUM_GUARD, "quorum guard vetoed fencing control-plane node "
                        + node.name() + ": " + veto.get());
            }
        }
        Instant last = lastAdmitted.get(node.name());
        if (last != null && now.isBefore(Deadlines.plus(last, settings.nodeCooldown()))) {
            Instant end = Deadlines.plus(last, settings.nodeCooldown());
            return new Held(Reason.NODE_COOLDOWN, "node " + node.name() + " was admitted at " + last
                    + "; nodeCooldown " + settings.nodeCooldown() + " lasts until " + end, Optional.of(end));
        }
        if (fences != null && fences.available(now) == 0) {
            return new Held(Reason.FENCE_RATE, fences.used(now) + " fences in the last " + fences.limit().window()
                    + " reach fencesPerWindow " + fences.limit(), Optional.of(fences.nextRoom(1, now)));
        }
        if (podDeletions != null && podDeletions.available(now) == 0) {
            return new Held(Reason.POD_DELETION_RATE, podDeletions.used(now) + " pod deletions in the last "
                    + podDeletions.limit().window() + " reach podDeletionsPerWindow " + podDeletions.limit(),
                    Optional.of(podDeletions.nextRoom(1, now)));
        }
        return new Admitted(raceDelay(node, view));
    }

    private Optional<String> veto(NodeView node, PoolView view) {
        try {
            Optional<String> veto = quorumGuard.veto(node, view);
            if (veto == null) {
                return Optional.of("the quorum guard answered null (a veto, to be safe)");
            }
            return veto.map(reason -> reason.isBlank() ? "(no reason given)" : reason);
        } catch (RuntimeException e) {
            LOG.warn("quorum guard {} failed on node {}; counted as a veto", quorumGuard, node.name(), e);
            return Optional.of("the quorum guard failed (" + e + "), counted as a veto");
        }
    }

    private Duration raceDelay(NodeView node, PoolView view) {
        Duration delay = settings.raceDelayBase();
        long maxNanos = settings.raceDelayRandomMax().toNanos();
        if (maxNanos > 0) {
            delay = delay.plusNanos(random.nextLong(0, maxNanos + 1));
        }
        if (view.hasHighestPriority(node.name())) {
            delay = delay.plus(settings.priorityDelay());
        }
        return delay;
    }

    private Optional<String> thresholdBreach(PoolView view) {
        int total = view.total();
        if (settings.minHealthy().isPresent()) {
            Threshold min = settings.minHealthy().get();
            int needed = min.minHealthyNodes(total);
            return view.healthy() >= needed ? Optional.empty() : Optional.of(view.healthy() + " of " + total
                    + " nodes healthy (" + percent(view.healthy(), total) + ") is below minHealthy " + min + " ("
                    + needed + " nodes" + (min.isPercent() ? ", rounded up" : "") + ")");
        }
        Threshold max = settings.maxUnhealthy().orElseThrow();
        int allowed = max.maxUnhealthyNodes(total);
        return view.notHealthy() <= allowed ? Optional.empty() : Optional.of(view.notHealthy() + " of " + total
                + " nodes not healthy (" + percent(view.notHealthy(), total) + ") exceeds maxUnhealthy " + max + " ("
                + allowed + " nodes" + (max.isPercent() ? ", rounded down" : "") + ")");
    }

    private Reason thresholdReason() {
        return settings.minHealthy().isPresent() ? Reason.MIN_HEALTHY : Reason.MAX_UNHEALTHY;
    }

    private String thresholdText() {
        return settings.thresholdName() + " " + settings.minHealthy().or(settings::maxUnhealthy).orElseThrow();
    }

    private void publish(List<StormSignal> signals) {
        for (StormSignal signal : signals) {
            try {
                listener.onSignal(signal);
            } catch (RuntimeException e) {
                LOG.warn("storm listener {} failed on {}; ignored", listener, signal.getClass().getSimpleName(), e);
            }
        }
    }

    private static String percent(int part, int whole) {
        return whole == 0 ? "0%" : percent((double) part / whole);
    }

    private static String percent(double share) {
        String text = String.format(Locale.ROOT, "%.1f", share * 100);
        return (text.endsWith(".0") ? text.substring(0, text.length() - 2) : text) + "%";
    }
}
