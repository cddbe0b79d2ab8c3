package dev.remedy.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.storm.QuorumGuard;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.storm.StormSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * The incremental controller decides what the full pass decides, and what it decided before the pool-wide work left
 * its advance (the {@link LegacyIncrementalPolicyController} oracle), over random sequences of node changes, remedy
 * failures and completions, departures and passing (fake) time. Decisions are compared per step as multisets: within
 * one call the controllers may list them in another order.
 */
class IncrementalEquivalenceTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final String[] STATUSES = {"True", "False", "Unknown"};
    /**
     * A signal's detail counts the pool at the moment it is sent, which within one call depends on the order in
     * which nodes are looked at; what is signalled, for which node or domain, and when, does not.
     */
    private static final Pattern DETAIL = Pattern.compile(", detail=[^\\]]*");
    private static final Comparator<PolicyDecision> ORDER = Comparator.comparing(PolicyDecision::toString);

    /**
     * Counts whether the sequence started any remediation, and requires most sequences to: a seed whose storm settings
     * or changes start none is valid, but the property must not be proved by such sequences alone.
     */
    private static void exercised(Fake runner) {
        Statistics.label("sequences").collect(runner.calls.isEmpty() ? "started no remediation"
                : "exercised remediations")
                .coverage(coverage -> coverage.check("exercised remediations").percentage(p -> p >= 75));
    }

    @Property(tries = 150)
    @Label("incremental (polled or told progress) = the previous incremental controller, with storm protection")
    void sameAsBefore(@ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Policy> policies = List.of(policy("workers", NodeSelector.ALL, storm(random)),
                policy("db", new NodeSelector(Map.of("tier", "db")), storm(random)));
        List<String> legacySignals = new ArrayList<>();
        List<String> polledSignals = new ArrayList<>();
        List<String> toldSignals = new ArrayList<>();
        Fake legacyRunner = new Fake();
        Fake polledRunner = new Fake();
        Fake toldRunner = new Fake();
        LegacyIncrementalPolicyController legacy = new LegacyIncrementalPolicyController(policies, legacyRunner,
                gate(seed, legacySignals::add), d -> { });
        IncrementalPolicyController polled = new IncrementalPolicyController(policies, polledRunner,
                gate(seed, polledSignals::add), d -> { });
        IncrementalPolicyController told = IncrementalPolicyController.reportingProgress(policies, toldRunner,
                gate(seed, toldSignals::add), d -> { });
        Map<String, NodeStatus> fleet = new LinkedHashMap<>();
        Instant now = T0;
        for (int step = 0; step < 300; step++) {
            now = now.plusSeconds(random.nextInt(4) == 0 ? 0 : random.nextInt(1, 90));
            List<PolicyDecision> a = new ArrayList<>();
            List<PolicyDecision> b = new ArrayList<>();
            List<PolicyDecision> c = new ArrayList<>();
            String name = "n" + random.nextInt(10);
            int action = random.nextInt(10);
            if (action < 6) {
                NodeStatus node = change(fleet.get(name), name, random, now);
                fleet.put(name, node);
                a.addAll(legacy.observe(node, now));
                b.addAll(polled.observe(node, now));
                c.addAll(told.observe(node, now));
            } else if (action < 9) {
                RemedyRunner.Progress progress = random.nextBoolean() ? RemedyRunner.Progress.FAILED
                        : RemedyRunner.Progress.DONE;
                legacyRunner.progress.put(name, progress);
                polledRunner.progress.put(name, progress);
                toldRunner.progress.put(name, progress);
                told.progressed(name);
            } else {
                fleet.remove(name);
                legacy.forget(name);
                polled.forget(name);
                told.forget(name);
            }
            a.addAll(legacy.advance(now));
            b.addAll(polled.advance(now));
            c.addAll(told.advance(now));
            a.sort(ORDER);
            b.sort(ORDER);
            c.sort(ORDER);
            assertThat(b).as("step %d, polled progress", step).isEqualTo(a);
            assertThat(c).as("step %d, told progress", step).isEqualTo(a);
            assertThat(polledRunner.calls).as("runner calls, polled").containsExactlyInAnyOrderElementsOf(legacyRunner.calls);
            assertThat(toldRunner.calls).as("runner calls, told").containsExactlyInAnyOrderElementsOf(legacyRunner.calls);
            assertThat(polled.remediating()).isEqualTo(legacy.remediating());
            assertThat(told.remediating()).isEqualTo(legacy.remediating());
        }
        assertThat(polledSignals).as("storm signals").containsExactlyInAnyOrderElementsOf(legacySignals);
        assertThat(toldSignals).as("storm signals").containsExactlyInAnyOrderElementsOf(legacySignals);
        exercised(legacyRunner);
    }

    @Property(tries = 150)
    @Label("incremental = full pass over every node, with the open gate")
    void sameAsFullPass(@ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Policy> policies = List.of(policy("workers", NodeSelector.ALL, StormSettings.ofDefaults()));
        Fake fullRunner = new Fake();
        Fake incrementalRunner = new Fake();
        PolicyController full = new PolicyController(policies, fullRunner, AdmissionGate.OPEN, d -> { });
        IncrementalPolicyController incremental = new IncrementalPolicyController(policies, incrementalRunner,
                AdmissionGate.OPEN, d -> { });
        Map<String, NodeStatus> fleet = new LinkedHashMap<>();
        Instant now = T0;
        for (int step = 0; step < 300; step++) {
            now = now.plusSeconds(random.nextInt(4) == 0 ? 0 : random.nextInt(1, 90));
            List<PolicyDecision> b = new ArrayList<>();
            String name = "n" + random.nextInt(8);
            int action = random.nextInt(10);
            if (action < 6) {
                NodeStatus node = change(fleet.get(name), name, random, now);
                fleet.put(name, node);
                b.addAll(incremental.observe(node, now));
            } else if (action < 9) {
                RemedyRunner.Progress progress = random.nextBoolean() ? RemedyRunner.Progress.FAILED
                        : RemedyRunner.Progress.DONE;
                fullRunner.progress.put(name, progress);
                incrementalRunner.progress.put(name, progress);
            } else {
                fleet.remove(name);
                incremental.forget(name);
            }
            b.addAll(incremental.advance(now));
            List<PolicyDecision> a = new ArrayList<>(full.evaluate(List.copyOf(fleet.values()), now));
            a.sort(ORDER);
            b.sort(ORDER);
            assertThat(b).as("step %d", step).isEqualTo(a);
            assertThat(incrementalRunner.calls).containsExactlyInAnyOrderElementsOf(fullRunner.calls);
        }
        exercised(fullRunner);
    }

    /** The node with a random Ready status (a new transition time only if it changed) and random labels. */
    private static NodeStatus change(NodeStatus before, String name, SplittableRandom random, Instant now) {
        String status = STATUSES[random.nextInt(STATUSES.length)];
        NodeCondition old = before == null ? null : before.find("Ready");
        Instant since = old != null && old.status().equals(status) ? old.lastTransition()
                : now.minusSeconds(random.nextInt(3) == 0 ? random.nextInt(600) : 0);
        Map<String, String> labels = new HashMap<>();
        labels.put("rack", "r" + random.nextInt(3));
        if (random.nextInt(3) == 0) {
            labels.put("tier", "db");
        }
        return new NodeStatus(name, labels, List.of(new NodeCondition("Ready", status, since)));
    }

    /** Storm settings that sometimes bind (few nodes), with racks as failure domains. */
    private static StormSettings storm(SplittableRandom random) {
        return StormSettings.custom().maxUnhealthy(random.nextBoolean() ? "60%" : "100%")
                .quietPeriod(Duration.ofSeconds(random.nextInt(3) * 120L)).maxConcurrent(random.nextInt(2, 20))
                .failureDomainLabel("rack").domainMinUnhealthy(2).maxDomainShare(0.9).build();
    }

    private static AdmissionGate gate(long seed, Consumer<String> signals) {
        return new StormGate(new SplittableRandom(seed), QuorumGuard.oneAtATime(),
                (StormSignal s) -> signals.accept(DETAIL.matcher(s.toString()).replaceAll("")), T0);
    }

    private static Policy policy(String name, NodeSelector selector, StormSettings storm) {
        return new Policy(name, selector, NodeRole.WORKER,
                List.of(new UnhealthyCondition("Ready", "False", Duration.ofMinutes(5)),
                        new UnhealthyCondition("Ready", "Unknown", Duration.ofMinutes(3))),
                List.of(new Remedy.External("soft", Duration.ofMinutes(4), Map.of("kind", "SelfNodeRemediation")),
                        new Remedy.Fence("fence", Duration.ofMinutes(10))),
                Policy.DEFAULT_EXCLUSION_LABEL, Duration.ofMinutes(1), List.of(), storm);
    }

    /** Records starts and cancels, in order; progress is RUNNING from a start until the test sets it. */
    private static final class Fake implements RemedyRunner {
        final List<String> calls = new ArrayList<>();
        final Map<String, Progress> progress = new HashMap<>();

        @Override
        public void start(String node, Remedy remedy, String reason) {
            calls.add("start " + node + ":" + remedy.name());
            progress.put(node, Progress.RUNNING);
        }

        @Override
        public Progress progress(String node, Remedy remedy) {
            return progress.getOrDefault(node, Progress.RUNNING);
        }

        @Override
        public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
            calls.add("cancel " + node + ":" + remedy.name());
        }
    }
}
