package dev.remedy.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.policy.PolicyDecision.Kind;
import dev.remedy.core.storm.QuorumGuard;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.storm.StormSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The controller asks storm protection before any new remediation, and passes the race delay on. */
class StormGateTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    private final List<String> started = new ArrayList<>();
    private final List<Duration> delays = new ArrayList<>();
    private final List<StormSignal> signals = new ArrayList<>();

    @Test
    @DisplayName("too many unhealthy nodes: every start is refused with the rule and the counts, and a storm starts")
    void stormRefuses() {
        PolicyController controller = controller(StormSettings.custom().maxUnhealthy("40%").quietPeriod(Duration.ZERO)
                .build());
        List<NodeStatus> nodes = nodes(10, 6);
        List<PolicyDecision> decisions = controller.evaluate(nodes, T0.plusSeconds(400));
        assertThat(decisions).hasSize(6).allSatisfy(d -> {
            assertThat(d.kind()).isEqualTo(Kind.HELD);
            assertThat(d.reason()).startsWith("refused (max_unhealthy)").contains("6 of 10");
        });
        assertThat(started).isEmpty();
        assertThat(signals).anyMatch(StormSignal.StormStarted.class::isInstance);
    }

    @Test
    @DisplayName("a start admitted by storm protection carries its race delay to the remedy")
    void admittedWithRaceDelay() {
        PolicyController controller = controller(StormSettings.custom().maxUnhealthy("40%").quietPeriod(Duration.ZERO)
                .raceDelay(Duration.ofSeconds(5), Duration.ofSeconds(3)).build());
        controller.evaluate(nodes(10, 1), T0.plusSeconds(400));
        assertThat(started).containsExactly("node-0");
        assertThat(delays).singleElement().satisfies(d ->
                assertThat(d).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(8)));
    }

    @Test
    @DisplayName("no remediation starts during the quiet period after the engine started")
    void quietPeriod() {
        PolicyController controller = controller(StormSettings.custom().maxUnhealthy("40%")
                .quietPeriod(Duration.ofMinutes(10)).build());
        assertThat(controller.evaluate(nodes(10, 1), T0.plusSeconds(400))).singleElement()
                .satisfies(d -> assertThat(d.reason()).startsWith("held (quiet_period)"));
        assertThat(controller.evaluate(nodes(10, 1), T0.plusSeconds(601))).extracting(PolicyDecision::kind)
                .containsExactly(Kind.STARTED);
    }

    @Test
    @DisplayName("an escalation to a fence is a new fence: storm protection holds it back until admitted")
    void escalationToAFenceIsAdmitted() {
        Policy policy = new Policy("workers", NodeSelector.ALL, NodeRole.WORKER,
                List.of(new UnhealthyCondition("Ready", "False", Duration.ofMinutes(5))),
                List.of(new Remedy.External("reboot", Duration.ofMinutes(5), Map.of("kind", "Reboot")),
                        new Remedy.Fence("fence", Duration.ofMinutes(10))), Policy.DEFAULT_EXCLUSION_LABEL,
                Duration.ZERO, List.of(), StormSettings.custom().maxUnhealthy("40%").quietPeriod(Duration.ZERO)
                        .fencesPerWindow(3, Duration.ofHours(1)).build());
        PolicyController controller = new PolicyController(List.of(policy), runner(),
                new StormGate(new SplittableRandom(1), QuorumGuard.oneAtATime(), signals::add, T0), d -> { });
        List<NodeStatus> nodes = nodes(10, 2);
        controller.evaluate(nodes, T0.plusSeconds(300));
        assertThat(started).containsExactly("node-0", "node-1");
        List<PolicyDecision> escalation = controller.evaluate(nodes, T0.plusSeconds(600));
        assertThat(started).as("three admissions per hour: two starts and one escalation").hasSize(3);
        assertThat(escalation).extracting(PolicyDecision::kind).contains(Kind.ESCALATED, Kind.HELD);
        assertThat(escalation).filteredOn(d -> d.kind() == Kind.HELD).singleElement()
                .satisfies(d -> assertThat(d.reason()).startsWith("held (fence_rate)"));
        String waiting = escalation.stream().filter(d -> d.kind() == Kind.HELD).findFirst().orElseThrow().node();
        assertThat(controller.evaluate(nodes, T0.plusSeconds(4200))).filteredOn(d -> d.node().equals(waiting))
                .extracting(PolicyDecision::kind).containsExactly(Kind.ESCALATED);
        assertThat(started).hasSize(4);
    }

    @Test
    @DisplayName("a check of one's own (a node still renewing its storage lease) is composed with storm protection")
    void composedCheck() {
        Policy policy = new Policy("workers", NodeSelector.ALL, NodeRole.WORKER,
                List.of(new UnhealthyCondition("Ready", "False", Duration.ofMinutes(5))),
                List.of(new Remedy.Fence("fence", Duration.ofMinutes(10))), Policy.DEFAULT_EXCLUSION_LABEL,
                Duration.ZERO, List.of(), StormSettings.custom().maxUnhealthy("40%").quietPeriod(Duration.ZERO).build());
        AdmissionGate leaseCheck = (node, p, pool, now) -> node.equals("node-0")
                ? Optional.of("node-0 still renews its storage lease") : Optional.empty();
        PolicyController controller = new PolicyController(List.of(policy), runner(),
                new StormGate(new SplittableRandom(1), QuorumGuard.oneAtATime(), signals::add, T0).and(leaseCheck),
                d -> { });
        List<PolicyDecision> made = controller.evaluate(nodes(10, 2), T0.plusSeconds(400));
        assertThat(made).extracting(PolicyDecision::node, PolicyDecision::kind).containsExactly(
                org.assertj.core.groups.Tuple.tuple("node-0", Kind.HELD),
                org.assertj.core.groups.Tuple.tuple("node-1", Kind.STARTED));
        assertThat(made.get(0).reason()).contains("storage lease");
        assertThat(started).containsExactly("node-1");
    }

    private PolicyController controller(StormSettings storm) {
        Policy policy = new Policy("workers", NodeSelector.ALL, NodeRole.WORKER,
                List.of(new UnhealthyCondition("Ready", "False", Duration.ofMinutes(5))),
                List.of(new Remedy.Fence("fence", Duration.ofMinutes(10))), Policy.DEFAULT_EXCLUSION_LABEL,
                Duration.ZERO, List.of(), storm);
        return new PolicyController(List.of(policy), runner(),
                new StormGate(new SplittableRandom(1), QuorumGuard.oneAtATime(), signals::add, T0), d -> { });
    }

    private RemedyRunner runner() {
        return new RemedyRunner() {
            @Override
            public void start(String node, Remedy remedy, String reason) {
                start(node, remedy, reason, Duration.ZERO);
            }

            @Override
            public void start(String node, Remedy remedy, String reason, Duration raceDelay) {
                started.add(node);
                delays.add(raceDelay);
            }

            @Override
            public Progress progress(String node, Remedy remedy) {
                return Progress.RUNNING;
            }

            @Override
            public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
            }
        };
    }

    private static List<NodeStatus> nodes(int total, int unhealthy) {
        return IntStream.range(0, total).mapToObj(i -> new NodeStatus("node-" + i, Map.of(),
                List.of(new NodeCondition("Ready", i < unhealthy ? "False" : "True", T0)))).toList();
    }
}
