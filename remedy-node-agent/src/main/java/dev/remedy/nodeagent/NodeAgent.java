package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.rules.FailureDomainRule;
import dev.remedy.core.rules.Peer;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.core.rules.PeerSelection;
import dev.remedy.core.rules.PeerTally;
import dev.remedy.core.rules.PeerVerdict;
import dev.remedy.spi.TimeSource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's self-node-remediation agent, the poison-pill design's rules on a running node. Two ticks drive it,
 * each on its own thread ({@link NodeAgentRunner} schedules them; tests call them):
 * <ul>
 *   <li>{@link #check()}, every {@code apiCheckInterval}: reads the node's remediation signals through the
 *       {@link ClusterView}, bounded by {@code apiServerTimeout}. A signal that names the node: unhealthy. None:
 *       healthy, and the agent renews its Lease. A failed read counts; from {@code maxApiErrorThreshold} consecutive
 *       failures on, every check asks the peers in batches ({@link PeerSelection}, spread over failure domains if
 *       configured) until {@link PeerVerdict} decides, then applies {@link FailureDomainRule}. The failure count is
 *       reset only by a successful read, so a node that peers keep up asks them again at every check.</li>
 *   <li>{@link #feed()}, every third of the watchdog's timeout: feeds the watchdog while the node is not declared
 *       unhealthy and the check loop made progress within {@link #livenessBound()}; a hung check loop stops the
 *       feeding, and the watchdog resets the node.</li>
 * </ul>
 * Once unhealthy, the agent triggers its {@link Watchdog} and never changes its mind.
 *
 * <p>{@link #answer} serves the peers: what this node's own view of the API server says about the asking node.
 *
 * <p>Thread-safe: {@link #check()} runs one at a time; {@link #feed()} and {@link #answer} may run concurrently.
 */
public final class NodeAgent {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

    /** Where a node stands. */
    public enum Health {
        /** The API server (or the peers) say healthy. */
        HEALTHY,
        /** The last reads failed, fewer than the threshold: the peers are not asked yet. */
        API_ERRORS,
        /** Declared unhealthy: the watchdog was triggered, the node resets. */
        UNHEALTHY
    }

    /**
     * The outcome of the last check.
     *
     * @param health              where the node stands
     * @param reason              why, for logs and tests
     * @param consecutiveFailures failed reads of the API server in a row
     * @param verdict             the peers' verdict, when they were asked
     */
    public record Status(Health health, String reason, int consecutiveFailures, Optional<PeerVerdict.Result> verdict) {
        /** Validates the fields. */
        public Status {
            Objects.requireNonNull(health, "health");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(verdict, "verdict");
        }
    }

    private final String node;
    private final NodeAgentSettings settings;
    private final ClusterView view;
    private final PeerTransport peers;
    private final Watchdog watchdog;
    private final TimeSource time;
    private final RandomGenerator random;
    private final Instant bootTime;
    private final ExecutorService executor;

    private final Object checking = new Object();
    private int failures;
    private SelfReport lastReport;
    private volatile Status status = new Status(Health.HEALTHY, "not checked yet", 0, Optional.empty());
    private volatile long heartbeat;
    private volatile boolean starving;

    private NodeAgent(Builder b) {
        this.node = Objects.requireNonNull(b.node, "node");
        this.settings = Objects.requireNonNull(b.settings, "settings");
        this.view = Objects.requireNonNull(b.view, "view");
        this.peers = Objects.requireNonNull(b.peers, "peers");
        this.watchdog = Objects.requireNonNull(b.watchdog, "watchdog");
        this.time = Objects.requireNonNull(b.time, "time");
        this.random = Objects.requireNonNull(b.random, "random");
        this.bootTime = Objects.requireNonNull(b.bootTime, "bootTime");
        this.executor = Objects.requireNonNull(b.executor, "executor");
        this.heartbeat = time.nanoTime();
    }

    /** A builder; node, settings, view, peers, watchdog, boot time and executor are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** The node this agent runs on. */
    public String node() {
        return node;
    }

    /** The outcome of the last check. */
    public Status status() {
        return status;
    }

    /** The agent's watchdog. */
    public Watchdog watchdog() {
        return watchdog;
    }

    /**
     * The longest the check loop may go without progress before {@link #feed()} stops feeding the watchdog:
     * {@code apiCheckInterval + max(apiServerTimeout, peerDialTimeout + peerRequestTimeout) + decisionAllowance}.
     * The check marks progress before and after each API read and each batch of peers.
     */
    public Duration livenessBound() {
        var t = settings.timings();
        Duration call = t.apiServerTimeout();
        Duration peer = t.peerDialTimeout().plus(t.peerRequestTimeout());
        return t.apiCheckInterval().plus(call.compareTo(peer) >= 0 ? call : peer).plus(t.decisionAllowance());
    }

    /**
     * One health check. Blocks at most {@code apiServerTimeout} for the API server, twice (the read and the Lease),
     * and, when the peers are asked, {@code peerDialTimeout + peerRequestTimeout} per batch.
     *
     * @return the new status
     */
    public Status check() {
        synchronized (checking) {
            if (status.health() == Health.UNHEALTHY) {
                return status;
            }
            beat();
            try {
                SelfReport report;
                try {
                    report = bounded(() -> view.check(node, bootTime), settings.timings().apiServerTimeout());
                } catch (Exception e) {
                    beat();
                    failures++;
                    if (failures < settings.timings().maxApiErrorThreshold()) {
                        return set(new Status(Health.API_ERRORS, "the API server cannot be read (" + describe(e)
                                + "), " + failures + " of " + settings.timings().maxApiErrorThreshold()
                                + " failures before the peers are asked", failures, Optional.empty()));
                    }
                    return askPeers(describe(e));
                }
                beat();
                failures = 0;
                lastReport = report;
                if (report.remediation().isPresent()) {
                    return unhealthy(new Status(Health.UNHEALTHY, "a remediation names this node: "
                            + report.remediation().get(), 0, Optional.empty()));
                }
                renewLease();
                return set(new Status(Health.HEALTHY, "the API server shows no remediation for this node", 0,
                        Optional.empty()));
            } finally {
                beat();
            }
        }
    }

    /**
     * One watchdog tick: feeds it unless the node was declared unhealthy or the check loop is stuck (no progress
     * within {@link #livenessBound()}).
     *
     * @return whether the watchdog was fed
     */
    public boolean feed() {
        if (status.health() == Health.UNHEALTHY) {
            return false;
        }
        long stale = time.nanoTime() - heartbeat;
        if (stale > livenessBound().toNanos()) {
            if (!starving) {
                LOG.error("the health check made no progress for {}: no longer feeding the watchdog, the node resets",
                        Duration.ofNanos(stale));
            }
            starving = true;
            return false;
        }
        try {
            watchdog.feed();
            return true;
        } catch (IOException e) {
            LOG.error("feeding the watchdog failed: {}", e.toString());
            return false;
        }
    }

    /**
     * What this node answers a peer that asks about itself: its own view of the API server, bounded by the shorter
     * of {@code apiServerTimeout} and {@code peerRequestTimeout}.
     *
     * @param asker         the asking node
     * @param askerBootTime when the asking node last booted
     * @return {@link PeerAnswer#HEALTHY}, {@link PeerAnswer#UNHEALTHY} or {@link PeerAnswer#API_ERROR}
     */
    public PeerAnswer answer(String asker, Instant askerBootTime) {
        var t = settings.timings();
        Duration limit = t.apiServerTimeout().compareTo(t.peerRequestTimeout()) <= 0 ? t.apiServerTimeout()
                : t.peerRequestTimeout();
        try {
            return bounded(() -> view.judge(asker, askerBootTime), limit);
        } catch (Exception e) {
            LOG.debug("answering {}: the API server cannot be read ({})", asker, describe(e));
            return PeerAnswer.API_ERROR;
        }
    }

    private Status askPeers(String apiProblem) {
        List<PeerNode> nodes = lastReport == null ? List.of() : lastReport.nodes();
        Map<String, String> selfLabels = lastReport == null ? Map.of() : lastReport.labels();
        Peer self = new Peer(node, settings.failureDomain(selfLabels));
        Map<String, PeerNode> byName = new HashMap<>();
        List<Peer> cluster = new ArrayList<>();
        for (PeerNode n : nodes) {
            byName.put(n.name(), n);
            cluster.add(new Peer(n.name(), settings.failureDomain(n.labels())));
        }
        List<List<Peer>> batches = PeerSelection.batches(self, cluster, random, settings.spreadPeersAcrossDomains());
        int peerCount = batches.stream().mapToInt(List::size).sum();
        PeerTally tally = PeerTally.EMPTY;
        List<FailureDomainRule.Answer> answers = new ArrayList<>();
        PeerVerdict.Result verdict = PeerVerdict.decide(tally, peerCount, settings.peerQuorum());
        for (List<Peer> batch : batches) {
            if (verdict.outcome() != PeerVerdict.Outcome.ASK_NEXT_BATCH) {
                break;
            }
            List<PeerAnswer> got = askBatch(batch.stream().map(p -> byName.get(p.name())).toList());
            beat();
            for (int i = 0; i < batch.size(); i++) {
                PeerNode p = byName.get(batch.get(i).name());
                answers.add(new FailureDomainRule.Answer(p.name(), settings.domains(p.labels()), got.get(i)));
            }
            tally = tally.plus(PeerTally.of(got));
            verdict = PeerVerdict.decide(tally, peerCount, settings.peerQuorum());
        }
        verdict = FailureDomainRule.apply(verdict, settings.domains(selfLabels), answers);
        String reason = "the API server cannot be read (" + apiProblem + ", " + failures + " failures); peers: "
                + verdict.reason() + " " + verdict.tally();
        if (verdict.outcome() == PeerVerdict.Outcome.UNHEALTHY) {
            return unhealthy(new Status(Health.UNHEALTHY, reason, failures, Optional.of(verdict)));
        }
        return set(new Status(Health.HEALTHY, reason, failures, Optional.of(verdict)));
    }

    private List<PeerAnswer> askBatch(List<PeerNode> batch) {
        var t = settings.timings();
        Duration limit = t.peerDialTimeout().plus(t.peerRequestTimeout()).plusSeconds(1);
        List<Future<PeerAnswer>> asked = new ArrayList<>();
        for (PeerNode p : batch) {
            asked.add(executor.submit(() -> peers.ask(p, node, bootTime)));
        }
        List<PeerAnswer> got = new ArrayList<>();
        for (Future<PeerAnswer> f : asked) {
            try {
                got.add(f.get(limit.toNanos(), TimeUnit.NANOSECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                got.add(PeerAnswer.NO_ANSWER);
            } catch (ExecutionException | TimeoutException e) {
                f.cancel(true);
                got.add(PeerAnswer.NO_ANSWER);
            }
        }
        return got;
    }

    private void renewLease() {
        try {
            bounded(() -> {
                view.report(node, watchdog.mode(), watchdog.timeout(), time.instant());
                return null;
            }, settings.timings().apiServerTimeout());
        } catch (Exception e) {
            LOG.warn("renewing this agent's Lease failed: {}", describe(e));
        }
    }

    private Status unhealthy(Status s) {
        set(s);
        LOG.error("node {} is unhealthy: {}; resetting it ({})", node, s.reason(), watchdog.mode().code());
        try {
            watchdog.trigger();
        } catch (IOException e) {
            LOG.error("the reset failed: {}", e.toString());
        }
        return s;
    }

    private Status set(Status s) {
        Status before = status;
        status = s;
        if (before.health() != s.health()) {
            LOG.info("node {}: {} ({})", node, s.health(), s.reason());
        }
        return s;
    }

    private void beat() {
        heartbeat = time.nanoTime();
        starving = false;
    }

    private <T> T bounded(Callable<T> call, Duration limit) throws Exception {
        Future<T> f = executor.submit(call);
        try {
            return f.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new TimeoutException("no answer within " + limit);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + firstLine(message));
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        String line = nl < 0 ? text : text.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }

    /** Builds a {@link NodeAgent}. */
    public static final class Builder {
        private String node;
        private NodeAgentSettings settings;
        private ClusterView view;
        private PeerTransport peers;
        private Watchdog watchdog;
        private TimeSource time = TimeSource.system();
        private RandomGenerator random = RandomGenerator.getDefault();
        private Instant bootTime;
        private ExecutorService executor;

        private Builder() {
        }

        /** The node the agent runs on. */
        public Builder node(String node) {
            this.node = node;
            return this;
        }

        /** The settings. */
        public Builder settings(NodeAgentSettings settings) {
            this.settings = settings;
            return this;
        }

        /** The API server. */
        public Builder view(ClusterView view) {
            this.view = view;
            return this;
        }

        /** How peers are asked. */
        public Builder peers(PeerTransport peers) {
            this.peers = peers;
            return this;
        }

        /** The watchdog, already opened ({@link Watchdogs#open}). */
        public Builder watchdog(Watchdog watchdog) {
            this.watchdog = watchdog;
            return this;
        }

        /** The time source; the system's by default. */
        public Builder time(TimeSource time) {
            this.time = time;
            return this;
        }

        /** The source of randomness for the order of peers; the JDK's default by default. */
        public Builder random(RandomGenerator random) {
            this.random = random;
            return this;
        }

        /** When the node last booted ({@link BootTime#read}). */
        public Builder bootTime(Instant bootTime) {
            this.bootTime = bootTime;
            return this;
        }

        /**
         * The threads that run API calls and peer requests, so that each is bounded; the caller owns and shuts it
         * down. A call that hangs keeps its thread: give an unbounded (cached) pool.
         */
        public Builder executor(ExecutorService executor) {
            this.executor = executor;
            return this;
        }

        /** The agent. */
        public NodeAgent build() {
            return new NodeAgent(this);
        }
    }
}
