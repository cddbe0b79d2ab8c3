package dev.remedy.benchmarks;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentReport;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.ResetAssumption;
import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.nodeagent.ClusterView;
import dev.remedy.nodeagent.NodeAgent;
import dev.remedy.nodeagent.PeerNode;
import dev.remedy.nodeagent.PeerTransport;
import dev.remedy.nodeagent.SelfReport;
import dev.remedy.nodeagent.Watchdog;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.Durations;
import dev.remedy.test.FakeTimeSource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of remedy's {@link NodeAgent}s on one fake clock, in one thread, and the operator's decision
 * ({@link ResetAssumption#decide}) on the Leases they publish: one node is cut off from the API server and from every
 * peer, and the run records when its watchdog fires and when the operator assumes the reset.
 *
 * <p>The clock moves in steps of {@link #STEP}. At each step every agent's due watchdog feed (fixed rate, a third of
 * the timeout) and due check (fixed delay, {@code apiCheckInterval} after the previous one ended) runs, as
 * {@code NodeAgentRunner} schedules them, and the operator decides. The agents' calls run in place (a direct
 * executor): a healthy read answers at once; a read or a peer request of the cut-off node hangs until its timeout
 * (the worst case the safe time allows for), which the run models by owing that time: the next time the agent reads
 * its clock, the clock steps forward to the end of the timeout, running every other due task on the way (the cut-off
 * node's own feeds included, as its feeding thread would).
 */
final class SelfNodeCluster {

    /** The clock's step. */
    static final Duration STEP = Duration.ofMillis(100);
    /** How long the cluster runs before the cut-off, so that every agent has checked and reported. */
    static final Duration WARMUP = Duration.ofSeconds(60);
    private static final Duration GIVE_UP = Duration.ofMinutes(20);
    private static final String CUT = "node-0";

    /**
     * What one run saw, in seconds since the cluster started.
     *
     * @param cut       when the node was cut off
     * @param mark      when the operator marked it
     * @param fired     when its watchdog fired, if it did
     * @param released  when the operator assumed the reset, if it did
     * @param decision  the operator's last decision, in words
     * @param needless  nodes other than the cut-off one whose watchdog fired
     */
    record Run(double cut, double mark, Optional<Double> fired, Optional<Double> released, String decision,
            List<String> needless) {
    }

    /**
     * Where the cut-off falls.
     *
     * @param cutPhase  time from the cut-off node's last successful check to the cut-off; more than 0
     * @param feedPhase time from the start to the cut-off node's first watchdog feed
     * @param markAfterCut when the operator marks the node, after the cut-off; negative: before it (not before the
     *                  last successful check)
     */
    record Timing(Duration cutPhase, Duration feedPhase, Duration markAfterCut) {
    }

    private final NodeAgentSettings settings;
    private final FakeTimeSource clock = new FakeTimeSource();
    private final Instant start = clock.instant();
    private final List<Member> members = new ArrayList<>();
    private final Map<String, Member> byName = new HashMap<>();
    private final Map<String, Lease> leases = new HashMap<>();
    private final List<PeerNode> nodes = new ArrayList<>();
    private final Direct direct = new Direct();
    private final Member cutNode;
    private boolean settling;
    private Member busy;
    private long cutAt = Long.MAX_VALUE;
    private long markAt = Long.MAX_VALUE;
    private Optional<Instant> mark = Optional.empty();
    private Instant nextDecision = Instant.MIN;
    private Optional<Double> released = Optional.empty();
    private boolean refused;
    private String decision = "not decided";

    private SelfNodeCluster(NodeAgentSettings settings, int size, Duration feedPhase) {
        this.settings = settings;
        for (int i = 0; i < size; i++) {
            nodes.add(new PeerNode("node-" + i, Map.of(), Optional.of("10.0.0." + (i + 1))));
        }
        Duration interval = settings.timings().apiCheckInterval();
        Duration period = settings.timings().watchdogTimeout().dividedBy(3);
        for (int i = 0; i < size; i++) {
            String name = "node-" + i;
            // The other nodes' phases are spread over the interval and the feed period; the cut-off node's are given.
            Duration checkAt = i == 0 ? Duration.ZERO : Duration.ofNanos(interval.toNanos() * i / size);
            Duration feedAt = i == 0 ? feedPhase : Duration.ofNanos(period.toNanos() * i / size);
            Member m = new Member(name, checkAt, feedAt, period);
            members.add(m);
            byName.put(name, m);
        }
        cutNode = byName.get(CUT);
    }

    /**
     * Runs the cluster until the operator releases the cut-off node (or refuses, or 20 minutes pass).
     *
     * @param settings the settings of the agents and the operator
     * @param size     the number of nodes
     * @param timing   where the cut-off falls
     */
    static Run run(NodeAgentSettings settings, int size, Timing timing) {
        return new SelfNodeCluster(settings, size, timing.feedPhase()).run(timing);
    }

    private Run run(Timing timing) {
        while (elapsed().compareTo(WARMUP) < 0) {
            step();
        }
        tick();
        long lastCheck = cutNode.lastRead;
        cutAt = lastCheck + timing.cutPhase().toNanos();
        markAt = cutAt + timing.markAfterCut().toNanos();
        if (markAt <= lastCheck) {
            markAt = lastCheck + STEP.toNanos();
        }
        long giveUp = cutAt + GIVE_UP.toNanos();
        while (released.isEmpty() && !refused && clock.nanoTime() < giveUp) {
            step();
        }
        List<String> needless = members.stream().filter(m -> m != cutNode && m.watchdog.firedAt != null)
                .map(m -> m.name).toList();
        return new Run(seconds(Duration.ofNanos(cutAt)), seconds(Duration.between(start, mark.orElseThrow())),
                Optional.ofNullable(cutNode.watchdog.firedAt).map(at -> seconds(Duration.between(start, at))),
                released, decision, needless);
    }

    /**
     * What happens at this moment, in a step of the run or of a timeout that an agent waits out: the cut-off, the
     * mark, the operator's decision, then every node's due tasks.
     */
    private void tick() {
        long now = clock.nanoTime();
        if (!cutNode.cut && now >= cutAt) {
            cutNode.cut = true;
        }
        if (mark.isEmpty() && now >= markAt) {
            mark = Optional.of(clock.instant());
        }
        if (mark.isPresent() && released.isEmpty() && !refused && !clock.instant().isBefore(nextDecision)) {
            ResetAssumption.Decision d = decide(start.plusNanos(cutAt));
            decision = d.reason();
            if (d instanceof ResetAssumption.Assume) {
                released = Optional.of(seconds(elapsed()));
            } else if (d instanceof ResetAssumption.Refuse) {
                decision = "refused: " + d.reason();
                refused = true;
            } else if (d instanceof ResetAssumption.Wait w) {
                // As the operator requeues: at the end of the wait, or sooner if a report could change it.
                Instant soon = clock.instant().plusSeconds(5);
                nextDecision = w.until().isBefore(soon) ? w.until() : soon;
            }
        }
        for (Member m : members) {
            m.runDue();
        }
    }

    /** The operator's decision now, from the Leases and the mark, as the {@code self-node} agent reads them. */
    private ResetAssumption.Decision decide(Instant lastSeen) {
        List<ResetAssumption.SeenNode> cluster = new ArrayList<>(members.size());
        for (Member m : members) {
            cluster.add(new ResetAssumption.SeenNode(m.name, Map.of(), report(m.name)));
        }
        ResetAssumption.SeenNode self = cluster.get(members.indexOf(cutNode));
        Instant seen = cutNode.cut ? lastSeen : clock.instant();
        return ResetAssumption.decide(settings, new ResetAssumption.Situation(self, Optional.of(seen), mark.get(),
                cluster), clock.instant());
    }

    private Optional<NodeAgentReport> report(String node) {
        Lease lease = leases.get(node);
        return lease == null ? Optional.empty() : NodeAgentReport.read(node, lease.annotations, lease.renewed);
    }

    /** One step: what is due, then the clock moves. */
    private void step() {
        tick();
        clock.advance(STEP);
    }


    /** Moves the clock to {@code until}, step by step, running the due tasks of every node but the busy one. */
    private void settle(Member owing) {
        if (settling || owing.owedUntil == Long.MIN_VALUE) {
            return;
        }
        settling = true;
        try {
            while (clock.nanoTime() - owing.owedUntil < 0) {
                long left = owing.owedUntil - clock.nanoTime();
                clock.advance(Duration.ofNanos(Math.min(left, STEP.toNanos())));
                tick();
            }
            owing.owedUntil = Long.MIN_VALUE;
        } finally {
            settling = false;
        }
    }

    private Duration elapsed() {
        return clock.elapsed();
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    /** A Lease as the agent's {@code report} writes it (the annotations of {@link NodeAgentContract}). */
    private record Lease(Map<String, String> annotations, Instant renewed) {
    }

    /** One node: its agent, its view of the API server, its peer client, its watchdog and its schedule. */
    private final class Member implements ClusterView, PeerTransport, TimeSource {
        final String name;
        final NodeAgent agent;
        final SimWatchdog watchdog;
        final Duration period;
        boolean cut;
        long nextCheck;
        long nextFeed;
        long owedUntil = Long.MIN_VALUE;
        long lastRead;

        Member(String name, Duration checkAt, Duration feedAt, Duration period) {
            this.name = name;
            this.period = period;
            this.watchdog = new SimWatchdog(clock, settings.timings().watchdogTimeout());
            this.nextCheck = checkAt.toNanos();
            this.nextFeed = feedAt.toNanos();
            this.agent = NodeAgent.builder().node(name).settings(settings).view(this).peers(this).watchdog(watchdog)
                    .time(this).random(new SplittableRandom(name.hashCode())).bootTime(start.minusSeconds(3600))
                    .executor(direct).build();
        }

        void runDue() {
            if (watchdog.fired()) {
                return;
            }
            long now = clock.nanoTime();
            while (now - nextFeed >= 0) {
                agent.feed();
                nextFeed += period.toNanos();
            }
            if (busy != this && now - nextCheck >= 0 && !watchdog.fired()) {
                Member before = busy;
                busy = this;
                try {
                    agent.check();
                } finally {
                    busy = before;
                }
                settle(this);
                nextCheck = clock.nanoTime() + settings.timings().apiCheckInterval().toNanos();
            }
        }

        /** The cut-off node's call hangs until {@code timeout}: the time is owed, paid when the agent reads the clock. */
        private void owe(Duration timeout) {
            long until = clock.nanoTime() + timeout.toNanos();
            owedUntil = owedUntil == Long.MIN_VALUE || until - owedUntil > 0 ? until : owedUntil;
        }

        @Override
        public SelfReport check(String node, Instant bootTime) throws IOException {
            if (cut) {
                owe(settings.timings().apiServerTimeout());
                throw new IOException("the API server did not answer (node cut off)");
            }
            lastRead = clock.nanoTime();
            Optional<String> remediation = mark.isPresent() && name.equals(CUT) ? Optional.of("mark on " + name)
                    : Optional.empty();
            return new SelfReport(remediation, Map.of(), nodes);
        }

        @Override
        public PeerAnswer judge(String node, Instant bootTime) throws IOException {
            if (cut) {
                owe(settings.timings().apiServerTimeout());
                throw new IOException("the API server did not answer (node cut off)");
            }
            return mark.isPresent() && node.equals(CUT) ? PeerAnswer.UNHEALTHY : PeerAnswer.HEALTHY;
        }

        @Override
        public void report(String node, WatchdogMode mode, Optional<Duration> timeout, Instant renewed)
                throws IOException {
            if (cut) {
                owe(settings.timings().apiServerTimeout());
                throw new IOException("the API server did not answer (node cut off)");
            }
            Map<String, String> annotations = new HashMap<>();
            annotations.put(NodeAgentContract.WATCHDOG_ANNOTATION, mode.code());
            timeout.ifPresent(t -> annotations.put(NodeAgentContract.WATCHDOG_TIMEOUT_ANNOTATION,
                    Durations.format(t)));
            annotations.put(NodeAgentContract.SETTINGS_ANNOTATION, settings.fingerprint());
            leases.put(node, new Lease(annotations, renewed));
        }

        @Override
        public PeerAnswer ask(PeerNode peer, String self, Instant bootTime) {
            Member other = byName.get(peer.name());
            if (cut || other.cut || other.watchdog.fired()) {
                // Connected, then no answer: the longest a peer request can take.
                owe(settings.timings().peerDialTimeout().plus(settings.timings().peerRequestTimeout()));
                return PeerAnswer.NO_ANSWER;
            }
            return other.agent.answer(self, bootTime);
        }

        @Override
        public long nanoTime() {
            settle(this);
            return clock.nanoTime();
        }

        @Override
        public Instant instant() {
            settle(this);
            return clock.instant();
        }

        /** A wait is owed like a hang, and paid at once: the other nodes' due tasks run meanwhile. */
        @Override
        public void sleep(Duration duration) {
            owe(duration);
            settle(this);
        }
    }

    /** A watchdog device on the fake clock: fires when not fed for its timeout, and records when. */
    private static final class SimWatchdog implements Watchdog {
        private final FakeTimeSource clock;
        private final Duration timeout;
        private long lastFeed;
        private boolean triggered;
        Instant firedAt;

        SimWatchdog(FakeTimeSource clock, Duration timeout) {
            this.clock = clock;
            this.timeout = timeout;
            this.lastFeed = clock.nanoTime();
        }

        @Override
        public WatchdogMode mode() {
            return WatchdogMode.ARMED;
        }

        @Override
        public Optional<Duration> timeout() {
            return Optional.of(timeout);
        }

        @Override
        public void feed() {
            if (!triggered && !fired()) {
                lastFeed = clock.nanoTime();
            }
        }

        @Override
        public void trigger() {
            triggered = true;
        }

        @Override
        public void close(boolean clean) {
            // The run never stops an agent.
        }

        /** Whether it fired: not fed for its timeout. Records the moment it did, {@code lastFeed + timeout}. */
        boolean fired() {
            if (firedAt == null && clock.nanoTime() - lastFeed >= timeout.toNanos()) {
                firedAt = clock.instant().minusNanos(clock.nanoTime() - lastFeed - timeout.toNanos());
            }
            return firedAt != null;
        }
    }

    /** Runs every task in place, in the calling thread: the run is single-threaded and deterministic. */
    private static final class Direct extends AbstractExecutorService {
        @Override
        public void execute(Runnable command) {
            command.run();
        }

        @Override
        public void shutdown() {
        }

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return false;
        }
    }
}
