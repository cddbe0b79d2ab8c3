package dev.remedy.benchmarks;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.rules.SafeTimeSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Time-to-safe of self-node remediation for a node without a BMC, measured on fake time with remedy's own node agents
 * and the operator's decision ({@link SelfNodeCluster}): a node is cut off from the API server and its peers, its
 * watchdog fires when its agent stops feeding it, and the operator assumes the reset from the Lease the agent last
 * published and the mark. The defaults on 2, 6 and 50 nodes, then one setting shortened at a time on 50 nodes (where
 * the computed minimum is above the configured 180 s, so each shows), each with what it risks. Every row also runs
 * the worst cases (the cut-off at each second of a check interval, the first feed at every other second of its
 * period, the mark just after the last successful check): the margin between the release and the end of the reset
 * must stay positive, or the benchmark says so and exits with 1. Next to self-node-remediation's default, which is
 * not run here.
 */
final class SelfNodeBenchmark {

    /** self-node-remediation's documented default {@code safeTimeToAssumeNodeRebootedSeconds} (up to v0.8). */
    static final Duration SNR_DEFAULT = Duration.ofSeconds(180);
    /** When the operator marks the node in the headline runs, after the cut-off: Kubernetes' default grace period. */
    static final Duration MARK_DELAY = Duration.ofSeconds(40);
    private static final int SETTINGS_NODES = 50;
    private static final int SHOWN_FAILURES = 10;

    private SelfNodeBenchmark() {
    }

    /**
     * One row.
     *
     * @param name     what is set
     * @param nodes    the cluster's size
     * @param settings the settings of agents and operator
     * @param risk     what the setting risks, one line
     */
    record Scenario(String name, int nodes, NodeAgentSettings settings, String risk) {
    }

    /**
     * A row's figures.
     *
     * @param headline    the run with the cut-off just after a check and the mark {@link #MARK_DELAY} later
     * @param worstMargin the smallest release − (fired + rebootDuration) over the worst cases, in seconds
     * @param failures    what went wrong in any run, for the report
     */
    record Row(Scenario scenario, SelfNodeCluster.Run headline, double worstMargin, List<String> failures) {
    }

    /** Prints the table; exits with 1 on a safety failure. */
    public static void main(String[] args) {
        System.out.println("self-node remediation: time-to-safe of a node without a BMC (remedy-node-agent's NodeAgent"
                + " and the operator's ResetAssumption on fake time, steps of " + SelfNodeCluster.STEP.toMillis()
                + " ms)");
        System.out.println("  the node is cut off from the API server and every peer just after a successful check;"
                + " each read and peer request hangs until its timeout; the operator marks it "
                + MARK_DELAY.toSeconds() + " s later");
        System.out.println("  (Kubernetes' node-monitor-grace-period) and releases when ResetAssumption.decide assumes"
                + " the reset. Times in s since the cluster started; gone = fired + rebootDuration.");
        List<Row> rows = new ArrayList<>();
        for (Scenario s : scenarios()) {
            rows.add(measure(s));
        }
        printTable(rows);
        printPeer(rows);
        printRisks(rows);
        List<String> failures = rows.stream().flatMap(r -> r.failures().stream()).toList();
        if (!failures.isEmpty()) {
            System.out.println();
            System.out.println("!!! SAFETY FAILURE: the operator released a node whose processes may still run !!!");
            failures.stream().limit(SHOWN_FAILURES).forEach(f -> System.out.println("!!! " + f));
            if (failures.size() > SHOWN_FAILURES) {
                System.out.println("!!! and " + (failures.size() - SHOWN_FAILURES) + " more runs");
            }
            System.exit(1);
        }
    }

    static List<Scenario> scenarios() {
        NodeAgentSettings d = NodeAgentSettings.ofDefaults();
        List<Scenario> list = new ArrayList<>();
        list.add(new Scenario("defaults", 2, d, "-"));
        list.add(new Scenario("defaults", 6, d, "-"));
        list.add(new Scenario("defaults", SETTINGS_NODES, d, "-"));
        list.add(change("apiCheckInterval 5s", timings(5, 5, 3, 30, 5, 5, 60, 15),
                "3x the agents' API reads; an API server outage of 30 s (a restart, an upgrade) makes every node"
                        + " ask its peers"));
        list.add(change("apiServerTimeout 2s", timings(15, 2, 3, 30, 5, 5, 60, 15),
                "a busy API server answering in 2-5 s counts as down: three slow reads start a peer round"));
        list.add(change("maxApiErrorThreshold 1", timings(15, 5, 1, 30, 5, 5, 60, 15),
                "one slow or failed API server read starts a peer round"));
        list.add(change("peerDial 1s + peerRequest 2s", timings(15, 5, 3, 30, 1, 2, 60, 15),
                "a loaded peer (TLS handshake, GC, a slow API read) counts as no answer: more isolation verdicts,"
                        + " needless resets"));
        list.add(change("watchdogTimeout 30s", timings(15, 5, 3, 30, 5, 5, 30, 15),
                "a stall of the agent (GC, CPU starvation, a slow disk) longer than 30 s resets a healthy node"));
        list.add(change("rebootDuration 5s", timings(15, 5, 3, 30, 5, 5, 60, 5),
                "release 5 s after the watchdog fires: a slower reset (softdog, slow firmware) still runs the old"
                        + " processes"));
        list.add(change("decisionAllowance 10s", timings(15, 5, 3, 10, 5, 5, 60, 15),
                "the steps no timeout bounds (scheduling, GC pauses, peer list) must fit in 10 s, or the reset"
                        + " comes after the release"));
        list.add(new Scenario("safeTime 60s", SETTINGS_NODES, with(d, d.timings(), Duration.ofSeconds(60)),
                "none, and no gain: the computed minimum is a floor, a shorter configured safe time is ignored"));
        list.add(new Scenario("all of the above, safeTime 0s", SETTINGS_NODES,
                with(d, timings(5, 2, 1, 10, 1, 2, 30, 5), Duration.ZERO),
                "all of the above at once"));
        return list;
    }

    private static Scenario change(String name, SafeTimeSettings timings, String risk) {
        NodeAgentSettings d = NodeAgentSettings.ofDefaults();
        return new Scenario(name, SETTINGS_NODES, with(d, timings, d.safeTime()), risk);
    }

    private static SafeTimeSettings timings(long interval, long apiTimeout, int errors,
            long allowance, long dial, long request, long watchdog, long reboot) {
        return new SafeTimeSettings(Duration.ofSeconds(interval), Duration.ofSeconds(apiTimeout), errors,
                Duration.ofSeconds(allowance), Duration.ofSeconds(dial), Duration.ofSeconds(request),
                Duration.ofSeconds(watchdog), Duration.ofSeconds(reboot));
    }

    private static NodeAgentSettings with(NodeAgentSettings d, SafeTimeSettings timings, Duration safeTime) {
        return new NodeAgentSettings(timings, safeTime, d.peerQuorum(), d.peerPort(), d.failureDomainLabels(),
                d.spreadPeersAcrossDomains(), d.watchdogDevice(), d.watchdogFallback(), d.sysrqTrigger(),
                d.watchdogMagicClose());
    }

    /** The headline run, then the worst cases. */
    static Row measure(Scenario s) {
        SafeTimeSettings t = s.settings().timings();
        List<String> failures = new ArrayList<>();
        SelfNodeCluster.Run headline = SelfNodeCluster.run(s.settings(), s.nodes(),
                new SelfNodeCluster.Timing(SelfNodeCluster.STEP, Duration.ZERO, MARK_DELAY));
        check(s, headline, "headline", failures);
        double worst = margin(s, headline).orElse(Double.NaN);
        Duration period = t.watchdogTimeout().dividedBy(3);
        List<Duration> cutPhases = new ArrayList<>();
        cutPhases.add(SelfNodeCluster.STEP);
        for (Duration c = Duration.ofSeconds(1); c.compareTo(t.apiCheckInterval()) < 0; c = c.plusSeconds(1)) {
            cutPhases.add(c);
        }
        cutPhases.add(t.apiCheckInterval().minus(SelfNodeCluster.STEP));
        for (Duration cut : cutPhases) {
            for (Duration feed = Duration.ZERO; feed.compareTo(period) < 0; feed = feed.plusSeconds(2)) {
                // The mark just after the last successful check: the earliest the node cannot see.
                SelfNodeCluster.Run run = SelfNodeCluster.run(s.settings(), s.nodes(),
                        new SelfNodeCluster.Timing(cut, feed, t.apiCheckInterval().negated()));
                check(s, run, "cut-off " + cut.toMillis() / 1000.0 + " s after a check, first feed at "
                        + feed.toSeconds() + " s", failures);
                Optional<Double> m = margin(s, run);
                if (m.isPresent() && (Double.isNaN(worst) || m.get() < worst)) {
                    worst = m.get();
                }
            }
        }
        return new Row(s, headline, worst, failures);
    }

    /** Release − (fired + rebootDuration), when both happened. */
    static Optional<Double> margin(Scenario s, SelfNodeCluster.Run run) {
        if (run.fired().isEmpty() || run.released().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(run.released().get() - gone(s, run.fired().get()));
    }

    private static double gone(Scenario s, double fired) {
        return fired + s.settings().timings().rebootDuration().toMillis() / 1000.0;
    }

    /** Records a safety failure (released before the reset, or without one), and a reset of a node not cut off. */
    static void check(Scenario s, SelfNodeCluster.Run run, String which, List<String> failures) {
        String row = s.name() + " (" + s.nodes() + " nodes, " + which + "): ";
        if (run.released().isPresent() && run.fired().isEmpty()) {
            failures.add(row + "released at " + one(run.released().get()) + " s, but the watchdog never fired");
        }
        margin(s, run).filter(m -> m <= 0).ifPresent(m -> failures.add(row + "released at "
                + one(run.released().get()) + " s, the node's processes gone at " + one(gone(s, run.fired().get()))
                + " s: margin " + one(m) + " s"));
        if (run.released().isEmpty()) {
            failures.add(row + "never released (" + run.decision() + "); not unsafe, but the benchmark measures"
                    + " nothing");
        }
        if (!run.needless().isEmpty()) {
            failures.add(row + "the watchdog of " + run.needless() + " fired, nodes that were not cut off");
        }
    }

    private static void printTable(List<Row> rows) {
        System.out.println();
        System.out.printf(Locale.ROOT, "%-30s %5s %11s %7s %7s %7s %8s %9s %8s %8s %8s%n", "scenario", "nodes",
                "safe min/at", "cut-off", "mark", "fired", "released", "from mark", "from cut", "/SNR 180", "margin");
        for (Row r : rows) {
            Scenario s = r.scenario();
            SelfNodeCluster.Run h = r.headline();
            String safe = secs(s.settings().timings().minimumSafeTime(s.nodes())) + "/"
                    + secs(s.settings().safeTime(s.nodes()));
            Optional<Double> fromMark = h.released().map(x -> x - h.mark());
            System.out.printf(Locale.ROOT, "%-30s %5d %11s %7.1f %7.1f %7s %8s %9s %8s %8s %8s%n", s.name(),
                    s.nodes(), safe, h.cut(), h.mark(), h.fired().map(SelfNodeBenchmark::one).orElse("never"),
                    h.released().map(SelfNodeBenchmark::one).orElse("never"),
                    fromMark.map(SelfNodeBenchmark::one).orElse("-"),
                    h.released().map(x -> one(x - h.cut())).orElse("-"),
                    fromMark.map(x -> String.format(Locale.ROOT, "%.2f", x / SNR_DEFAULT.toSeconds())).orElse("-"),
                    Double.isNaN(r.worstMargin()) ? "-" : String.format(Locale.ROOT, "%+.1f", r.worstMargin()));
        }
        System.out.println("  safe min/at: the computed minimum for the cluster's size / the safe time used (the"
                + " configured one, 180 s, is a floor only above the minimum)");
        System.out.println("  from mark/from cut: time-to-safe of the headline run; /SNR 180: from mark over"
                + " self-node-remediation's 180 s (both count from the mark)");
        System.out.println("  margin: the smallest release - (fired + rebootDuration) over " + "the worst cases (cut-off"
                + " at each second of a check interval, first feed at every other second, mark just after the last"
                + " successful check)");
    }

    private static void printPeer(List<Row> rows) {
        System.out.println();
        System.out.println("self-node-remediation (medik8s) is NOT run here: its figures are its documented default and"
                + " its formula with its defaults, not a measurement of this run.");
        System.out.println("  safeTimeToAssumeNodeRebootedSeconds defaulted to 180 s up to v0.8; since v0.9 it is"
                + " optional and defaults to its computed minimum, with its defaults since v0.11");
        System.out.println("  3 x (15 s + 5 s) + max(batches x (5 s + 7 s), 30 s) + 60 s watchdog + 30 s; both count"
                + " from when its controller handles the remediation (as remedy's from the mark).");
        for (Row r : rows) {
            if (!r.scenario().name().equals("defaults")) {
                continue;
            }
            int n = r.scenario().nodes();
            Duration snr = snrMinimum(n);
            String ours = r.headline().released().map(x -> one(x - r.headline().mark())).orElse("-");
            String ratio = r.headline().released().map(x -> String.format(Locale.ROOT, "%.2f",
                    (x - r.headline().mark()) / snr.toSeconds())).orElse("-");
            System.out.printf(Locale.ROOT, "  %2d nodes: remedy %s s from the mark; SNR 180 s default: ratio %.2f;"
                    + " SNR's computed minimum for %d workers %d s: ratio %s%n", n, ours,
                    r.headline().released().map(x -> (x - r.headline().mark()) / SNR_DEFAULT.toSeconds()).orElse(
                            Double.NaN), n, snr.toSeconds(), ratio);
        }
    }

    /**
     * self-node-remediation's computed minimum with its defaults (v0.11 on: 15 s, 5 s, 3 errors, peers 5 s + 7 s, a
     * 60 s watchdog), for {@code workers} worker nodes, as medik8s/self-node-remediation's
     * {@code internal/reboot/calculator.go} and {@code internal/utils/peers.go} (commit 640aac50) compute it: the
     * first batch 3 nodes, then {@code max(3, (n - 3) / 10)}.
     */
    static Duration snrMinimum(int workers) {
        int batches = 0;
        for (int remaining = workers; remaining > 0; batches++) {
            int size = remaining == workers ? 3 : Math.max(3, (workers - 3) / 10);
            remaining -= Math.min(size, remaining);
        }
        Duration peers = Duration.ofSeconds(12).multipliedBy(batches);
        if (peers.compareTo(Duration.ofSeconds(30)) < 0) {
            peers = Duration.ofSeconds(30);
        }
        return Duration.ofSeconds(3 * (15 + 5)).plus(peers).plus(Duration.ofSeconds(60 + 30));
    }

    private static void printRisks(List<Row> rows) {
        System.out.println();
        System.out.println("what each shorter setting risks (" + SETTINGS_NODES + " nodes; the others at their"
                + " defaults; gain = time-to-safe saved against the defaults' row):");
        double base = rows.stream().filter(r -> r.scenario().name().equals("defaults")
                && r.scenario().nodes() == SETTINGS_NODES).findFirst().flatMap(r -> r.headline().released()
                .map(x -> x - r.headline().mark())).orElse(Double.NaN);
        for (Row r : rows) {
            if (r.scenario().name().equals("defaults")) {
                continue;
            }
            double fromMark = r.headline().released().map(x -> x - r.headline().mark()).orElse(Double.NaN);
            System.out.printf(Locale.ROOT, "  %-30s gain %5.1f s  %s%n", r.scenario().name(), base - fromMark,
                    r.scenario().risk());
        }
    }

    private static String secs(Duration d) {
        return d.toSeconds() + "s";
    }

    private static String one(double x) {
        return String.format(Locale.ROOT, "%.1f", x);
    }
}
