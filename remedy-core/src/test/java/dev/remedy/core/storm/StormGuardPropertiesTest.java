package dev.remedy.core.storm;

import static dev.remedy.core.storm.Pool.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.storm.Admission.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Storm protection under random pools, settings and histories, with a caller that records every admitted fence:
 * each admission is checked against an independent oracle of every rule, computed from the true state of the
 * pool; every denial carries a reason of the right kind and a detail.
 */
class StormGuardPropertiesTest {

    private static final Set<Reason> HELD = EnumSet.of(Reason.QUIET_PERIOD, Reason.STORM_COOLDOWN,
            Reason.MAX_CONCURRENT, Reason.CONTROL_PLANE_BUSY, Reason.FENCE_RATE, Reason.POD_DELETION_RATE);

    /** The random knobs of one run's settings. */
    record Knobs(boolean maxUnhealthy, boolean percent, int threshold, int maxConcurrent, boolean oneControlPlane,
                 int fenceLimit, int fenceWindowSeconds, int podLimit, int quietSeconds, int cooldownSeconds,
                 boolean domains, double domainShare, int domainMin, double disconnectedShare,
                 boolean unhealthyBasis, int raceMillis) {

        StormSettings settings() {
            StormSettings.Builder b = StormSettings.custom();
            String text = percent ? Math.min(threshold, 100) + "%" : Integer.toString(threshold % 12);
            if (maxUnhealthy) {
                b.maxUnhealthy(text);
            } else {
                b.minHealthy(text);
            }
            b.maxConcurrent(maxConcurrent).oneControlPlaneAtATime(oneControlPlane)
                    .fencesPerWindow(fenceLimit, Duration.ofSeconds(fenceWindowSeconds))
                    .podDeletionsPerWindow(podLimit, Duration.ofSeconds(fenceWindowSeconds * 2L))
                    .quietPeriod(Duration.ofSeconds(quietSeconds)).stormCooldown(Duration.ofSeconds(cooldownSeconds))
                    .maxDomainShare(domainShare).domainMinUnhealthy(domainMin).maxDisconnectedShare(disconnectedShare)
                    .domainShareBasis(unhealthyBasis ? StormSettings.DomainShareBasis.OF_UNHEALTHY_NODES
                            : StormSettings.DomainShareBasis.OF_DOMAIN_NODES)
                    .raceDelay(Duration.ofMillis(raceMillis), Duration.ofMillis(raceMillis * 2L))
                    .priorityDelay(Duration.ofMillis(raceMillis * 3L));
            if (domains) {
                b.failureDomainLabel("rack");
            }
            return b.build();
        }
    }

    /** What happens in the world. */
    enum Kind { FAIL, RECOVER, DISCONNECT, RECONNECT, ADVANCE, ADMIT, ADMIT_STALE, DELETE_PODS }

    /** One thing that happens: a kind, a node (index), an amount (seconds or pods). */
    record Action(Kind kind, int node, int amount) {
    }

    /** The true state of one node. */
    static final class Node {
        final String name;
        final boolean controlPlane;
        final Optional<String> rack;
        final int priority;
        boolean unhealthy;
        boolean remediating;
        boolean disconnected;

        Node(int index, boolean controlPlane, int rack, int priority) {
            this.name = "n" + index;
            this.controlPlane = controlPlane;
            this.rack = rack == 0 ? Optional.empty() : Optional.of("r" + rack);
            this.priority = priority;
        }

        NodeView view() {
            return new NodeView(name, controlPlane, unhealthy, remediating, disconnected, rack, priority);
        }

        boolean healthy() {
            return !unhealthy && !remediating;
        }
    }

    @Provide
    Arbitrary<Knobs> knobs() {
        Arbitrary<Knobs> first = Combinators.combine(Arbitraries.of(true, false), Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 100), Arbitraries.integers().between(1, 6),
                Arbitraries.of(true, false), Arbitraries.integers().between(1, 5),
                Arbitraries.integers().between(1, 1800), Arbitraries.integers().between(1, 60))
                .as((a, b, c, d, e, f, g, h) -> new Knobs(a, b, c, d, e, f, g, h, 0, 0, false, 0.5, 1, 0.5, false, 0));
        Arbitrary<Integer> quietSeconds = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(0)),
                Tuple.of(1, Arbitraries.integers().between(1, 600)));
        return Combinators.combine(first, quietSeconds,
                Arbitraries.integers().between(0, 900), Arbitraries.of(true, false),
                Arbitraries.doubles().between(0.1, 1.0).ofScale(2), Arbitraries.integers().between(1, 4),
                Arbitraries.doubles().between(0.1, 1.0).ofScale(2), Arbitraries.integers().between(0, 2000))
                .as((k, quiet, cooldown, domains, share, min, disconnected, race) -> new Knobs(k.maxUnhealthy(),
                        k.percent(), k.threshold(), k.maxConcurrent(), k.oneControlPlane(), k.fenceLimit(),
                        k.fenceWindowSeconds(), k.podLimit(), quiet, cooldown, domains, share, min, disconnected,
                        share > 0.7, race));
    }

    @Provide
    Arbitrary<List<Action>> histories() {
        Arbitrary<Kind> kinds = Arbitraries.frequency(Tuple.of(3, Kind.FAIL), Tuple.of(2, Kind.RECOVER),
                Tuple.of(1, Kind.DISCONNECT), Tuple.of(2, Kind.RECONNECT), Tuple.of(3, Kind.ADVANCE),
                Tuple.of(6, Kind.ADMIT), Tuple.of(2, Kind.ADMIT_STALE), Tuple.of(1, Kind.DELETE_PODS));
        return Combinators.combine(kinds, Arbitraries.integers().between(0, 999),
                Arbitraries.integers().between(1, 600)).as(Action::new).list().ofMinSize(10).ofMaxSize(150);
    }

    @Property(tries = 1000)
    @Label("admissions never break a rule when the caller records each admitted fence")
    void admissionsKeepEveryRule(@ForAll("knobs") Knobs knobs, @ForAll("histories") List<Action> history,
                                 @ForAll @IntRange(min = 1, max = 40) int size, @ForAll long seed) {
        StormSettings settings = knobs.settings();
        SplittableRandom shape = new SplittableRandom(seed);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            nodes.add(new Node(i, shape.nextInt(8) == 0, shape.nextInt(5), shape.nextInt(3)));
        }
        List<StormSignal> signals = new ArrayList<>();
        StormGuard guard = new StormGuard(settings, new SplittableRandom(seed), QuorumGuard.majority(), signals::add);
        guard.started(T0);
        Instant now = T0;
        PoolView lastView = null;
        List<Instant> fences = new ArrayList<>();
        List<Instant> podTimes = new ArrayList<>();
        List<Integer> podCounts = new ArrayList<>();
        int denials = 0;

        for (Action action : history) {
            Node node = nodes.get(action.node() % nodes.size());
            switch (action.kind()) {
                case FAIL -> node.unhealthy = true;
                case RECOVER -> {
                    node.unhealthy = false;
                    node.remediating = false;
                    guard.recordFinished(node.name);
                }
                case DISCONNECT -> node.disconnected = true;
                case RECONNECT -> node.disconnected = false;
                case ADVANCE -> now = now.plusSeconds(action.amount());
                case DELETE_PODS -> {
                    int count = Math.min(action.amount() % 20, settings.podDeletionsPerWindow().orElseThrow().count());
                    if (guard.tryRecordPodDeletions(count, now)) {
                        podTimes.add(now);
                        podCounts.add(count);
                        assertThat(inWindow(podTimes, podCounts, now,
                                settings.podDeletionsPerWindow().orElseThrow().window()))
                                .isLessThanOrEqualTo(settings.podDeletionsPerWindow().orElseThrow().count());
                    }
                }
                case ADMIT, ADMIT_STALE -> {
                    List<Node> candidates = nodes.stream().filter(n -> n.unhealthy && !n.remediating).toList();
                    if (candidates.isEmpty()) {
                        break;
                    }
                    Node candidate = candidates.get(action.node() % candidates.size());
                    boolean stale = action.kind() == Kind.ADMIT_STALE && lastView != null;
                    PoolView view = stale ? lastView : PoolView.of(nodes.stream().map(Node::view).toList());
                    lastView = view;
                    Admission admission = guard.admit(candidate.name, view, now);
                    Statistics.label("decisions").collect(admission instanceof Admission.Denied d
                            ? d.reason().name() : "ADMITTED");
                    if (admission instanceof Admission.Admitted admitted) {
                        checkAdmitted(settings, nodes, candidate, view, now, stale, admitted, guard);
                        guard.recordFence(candidate.name, now);
                        candidate.remediating = true;
                        fences.add(now);
                        RateLimit rate = settings.fencesPerWindow().orElseThrow();
                        assertThat(inWindow(fences, null, now, rate.window())).as("fences in the window")
                                .isLessThanOrEqualTo(rate.count());
                    } else {
                        denials++;
                        Admission.Denied denied = (Admission.Denied) admission;
                        assertThat(denied.detail()).isNotBlank();
                        assertThat(HELD.contains(denied.reason())).as("%s is held, not refused", denied.reason())
                                .isEqualTo(denied instanceof Admission.Held);
                    }
                }
                default -> throw new IllegalStateException("unexpected kind " + action.kind());
            }
        }
        assertThat(signals).filteredOn(StormSignal.AdmissionDenied.class::isInstance).hasSize(denials);
        assertThat(signals).allSatisfy(signal -> assertThat(signal.detail()).isNotBlank());
    }

    private static void checkAdmitted(StormSettings settings, List<Node> nodes, Node candidate, PoolView view,
                                      Instant now, boolean stale, Admission.Admitted admitted, StormGuard guard) {
        long others = nodes.stream().filter(n -> n.remediating && n != candidate).count();
        assertThat(others).as("remediations in progress besides the candidate").isLessThan(settings.maxConcurrent());
        if (candidate.controlPlane && settings.oneControlPlaneAtATime()) {
            assertThat(nodes.stream().filter(n -> n.controlPlane && n.remediating).count())
                    .as("control-plane nodes remediating").isZero();
        }
        assertThat(now).as("after the quiet period").isAfterOrEqualTo(T0.plus(settings.quietPeriod()));
        assertThat(guard.inStorm()).as("not in a storm").isFalse();
        Duration max = settings.raceDelayBase().plus(settings.raceDelayRandomMax()).plus(settings.priorityDelay());
        assertThat(admitted.raceDelay()).isBetween(settings.raceDelayBase(), max);
        if (stale) {
            return;
        }
        int total = nodes.size();
        long healthy = nodes.stream().filter(Node::healthy).count();
        settings.minHealthy().ifPresent(t -> assertThat(healthy).as("healthy nodes")
                .isGreaterThanOrEqualTo(t.minHealthyNodes(total)));
        settings.maxUnhealthy().ifPresent(t -> assertThat(total - healthy).as("not-healthy nodes")
                .isLessThanOrEqualTo(t.maxUnhealthyNodes(total)));
        long disconnected = nodes.stream().filter(n -> n.disconnected).count();
        assertThat(disconnected == 0 || (double) disconnected / total < settings.maxDisconnectedShare())
                .as("%d of %d disconnected", disconnected, total).isTrue();
        if (settings.failureDomainLabel().isPresent() && candidate.rack.isPresent()) {
            List<Node> rack = nodes.stream().filter(n -> n.rack.equals(candidate.rack)).toList();
            long bad = rack.stream().filter(n -> !n.healthy()).count();
            long of = settings.domainShareBasis() == StormSettings.DomainShareBasis.OF_DOMAIN_NODES
                    ? rack.size() : total - healthy;
            assertThat(bad >= settings.domainMinUnhealthy() && (double) bad / of >= settings.maxDomainShare())
                    .as("rack %s suspect", candidate.rack).isFalse();
        }
        assertThat(admitted.raceDelay().compareTo(settings.raceDelayBase().plus(settings.raceDelayRandomMax())) <= 0
                || view.hasHighestPriority(candidate.name)).as("priority delay only for the highest priority").isTrue();
    }

    private static int inWindow(List<Instant> times, List<Integer> counts, Instant now, Duration window) {
        int sum = 0;
        for (int i = 0; i < times.size(); i++) {
            if (times.get(i).plus(window).isAfter(now)) {
                sum += counts == null ? 1 : counts.get(i);
            }
        }
        return sum;
    }

    @Property
    @Label("a percentage rounds up to the least count that reaches it and down to the most that stays within it")
    void roundingIsTight(@ForAll @IntRange(min = 0, max = 100) int percent,
                         @ForAll @IntRange(min = 0, max = 1_000_000) int total) {
        Threshold threshold = Threshold.percent(percent);
        long exact = (long) total * percent;
        int up = threshold.minHealthyNodes(total);
        int down = threshold.maxUnhealthyNodes(total);

        assertThat(up * 100L).isGreaterThanOrEqualTo(exact);
        assertThat((up - 1) * 100L).isLessThan(exact);
        assertThat(down * 100L).isLessThanOrEqualTo(exact);
        assertThat((down + 1) * 100L).isGreaterThan(exact);
        assertThat(Threshold.parse(threshold.toString())).isEqualTo(threshold);
    }

    @Property
    @Label("a sliding window never grants more than its limit within any window and keeps at most limit entries")
    void slidingWindowBound(@ForAll @IntRange(min = 1, max = 20) int limit,
                            @ForAll("steps") List<Integer> steps) {
        SlidingWindow window = new SlidingWindow(RateLimit.of(limit, Duration.ofSeconds(60)));
        List<Instant> times = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        Instant now = T0;
        for (int step : steps) {
            now = now.plusSeconds(step % 40);
            int count = step % 7;
            if (window.tryAcquire(count, now)) {
                times.add(now);
                counts.add(count);
            }
            assertThat(inWindow(times, counts, now, Duration.ofSeconds(60))).isLessThanOrEqualTo(limit)
                    .isEqualTo(window.used(now));
            assertThat(window.entryCount()).isLessThanOrEqualTo(limit);
        }
    }

    @Provide
    Arbitrary<List<Integer>> steps() {
        return Arbitraries.integers().between(0, 1000).list().ofMaxSize(200);
    }
}
