package dev.remedy.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.policy.PolicyDecision.Kind;
import dev.remedy.core.storm.QuorumGuard;
import dev.remedy.core.storm.StormSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The controller's incremental mode: one node per observation, timers for durations. */
class IncrementalPolicyControllerTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    private final List<String> started = new ArrayList<>();
    private final List<String> cancelled = new ArrayList<>();
    /** The nodes whose remedy's progress the runner was asked for, in order. */
    private final List<String> asked = new ArrayList<>();
    private final Map<String, RemedyRunner.Progress> progress = new HashMap<>();

    @Test
    @DisplayName("a node showing a condition is started by advance once the duration has passed, not before")
    void durationFromTimer() {
        IncrementalPolicyController controller = controller(StormSettings.custom().maxUnhealthy("100%").quietPeriod(Duration.ZERO).build());
        assertThat(controller.observe(node("w1", "False", T0), T0)).isEmpty();
        assertThat(controller.advance(T0.plusSeconds(299))).isEmpty();
        assertThat(controller.advance(T0.plusSeconds(300))).extracting(PolicyDecision::kind)
                .containsExactly(Kind.STARTED);
        assertThat(started).containsExactly("w1");
    }

    @Test
    @DisplayName("a node flapping between Unknown and False is started after the duration, and keeps its remediation")
    void flapping() {
        IncrementalPolicyController controller = controller(StormSettings.custom().maxUnhealthy("100%").quietPeriod(Duration.ZERO).build());
        List<PolicyDecision> made = new ArrayList<>();
        for (int second = 0; second <= 600; second += 20) {
            String status = (second / 20) % 2 == 0 ? "Unknown" : "False";
            made.addAll(controller.observe(node("w1", status, T0.plusSeconds(second)), T0.plusSeconds(second)));
            made.addAll(controller.advance(T0.plusSeconds(second)));
        }
        assertThat(made).extracting(PolicyDecision::kind, PolicyDecision::at)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Kind.STARTED, T0.plusSeconds(300)));
        assertThat(started).containsExactly("w1");
    }

    @Test
    @DisplayName("storm protection counts the pool kept up to date: once 40% are unhealthy, starts are refused")
    void stormOverTheTally() {
        IncrementalPolicyController controller = controller(StormSettings.custom().maxUnhealthy("40%")
                .quietPeriod(Duration.ZERO).build());
        Instant now = T0.plusSeconds(400);
        for (int i = 0; i < 10; i++) {
            controller.observe(node("n" + i, "True", T0), now);
        }
        List<PolicyDecision> made = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            made.addAll(controller.observe(node("n" + i, "False", T0), now));
        }
        assertThat(started).as("4 of 10 may be unhealthy (40%, rounded down)").hasSize(4);
        assertThat(made).filteredOn(d -> d.kind() == Kind.HELD).hasSize(2)
                .allSatisfy(d -> assertThat(d.reason()).startsWith("refused (max_unhealthy)"));
    }

    @Test
    @DisplayName("a start held back is asked again after the recheck delay, though the node never changes")
    void heldStartIsAskedAgain() {
        IncrementalPolicyController controller = controller(StormSettings.custom().maxUnhealthy("50%")
                .quietPeriod(Duration.ZERO).stormCooldown(Duration.ZERO).build());
        Instant now = T0.plusSeconds(400);
        controller.observe(node("n0", "True", T0), now);
        controller.observe(node("n1", "False", T0), now);
        assertThat(controller.observe(node("n2", "False", T0), now)).extracting(PolicyDecision::kind)
                .as("2 of 3 unhealthy is over 50%").containsExactly(Kind.HELD);
        controller.observe(node("n3", "True", T0), now);
        assertThat(started).containsExactly("n1");

        assertThat(controller.advance(now.plusSeconds(1))).as("asked again only after the recheck delay").isEmpty();
        assertThat(controller.advance(now.plus(IncrementalPolicyController.HELD_RECHECK)))
                .extracting(PolicyDecision::kind).as("2 of 4: within 50% now").containsExactly(Kind.STARTED);
        assertThat(started).containsExactly("n1", "n2");
    }

    @Test
    @DisplayName("nodes observed together all enter the pools before any is decided: an informer's first list that "
            + "gives the sick node first is no storm")
    void observedTogether() {
        IncrementalPolicyController controller = controller(StormSettings.custom().quietPeriod(Duration.ZERO)
                .build());
        Instant now = T0.plusSeconds(400);

        List<PolicyDecision> made = controller.observeAll(List.of(node("n0", "False", T0), node("n1", "True", T0),
                node("n2", "True", T0)), now);

        assertThat(made).extracting(PolicyDecision::kind).containsExactly(Kind.STARTED);
        assertThat(started).containsExactly("n0");
    }

    @Test
    @DisplayName("advance follows running remediations: a timeout escalates, a healthy node is released after the delay")
    void followsRemediations() {
        IncrementalPolicyController controller = controller(StormSettings.custom().maxUnhealthy("100%").quietPeriod(Duration.ZERO).build());
        controller.observe(node("w1", "False", T0), T0.plusSeconds(300));
        assertThat(controller.advance(T0.plusSeconds(900))).extracting(PolicyDecision::kind)
                .containsExactly(Kind.CANCELLED, Kind.ESCALATED);
        controller.observe(node("w1", "True", T0.plusSeconds(950)), T0.plusSeconds(950));
        assertThat(controller.advance(T0.plusSeconds(1010))).extracting(PolicyDecision::kind)
                .containsExactly(Kind.RECOVERED);
        assertThat(controller.remediating()).isZero();
        controller.forget("w1");
        assertThat(controller.advance(T0.plusSeconds(2000))).isEmpty();
    }

    @Test
    @DisplayName("reporting progress: advance asks the runner only about the node said to have progressed, and a"
            + " timeout still escalates on time")
    void reportingProgress() {
        IncrementalPolicyController controller = controller(StormSettings.custom().maxUnhealthy("100%")
                .quietPeriod(Duration.ZERO).build(), true);
        Instant now = T0.plusSeconds(300);
        for (int i = 0; i < 3; i++) {
            controller.observe(node("w" + i, "False", T0), now);
        }
        assertThat(started).containsExactly("w0", "w1", "w2");
        assertThat(controller.advance(now.plusSeconds(10))).isEmpty();
        assertThat(asked).as("running remedies are not polled").isEmpty();
        progress.put("w1", RemedyRunner.Progress.FAILED);
        controller.progressed("w1");
        assertThat(controller.advance(now.plusSeconds(20))).extracting(PolicyDecision::node, PolicyDecision::kind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("w1", Kind.ESCALATED));
        assertThat(asked).containsExactly("w1");
        assertThat(controller.advance(now.plusSeconds(599))).isEmpty();
        assertThat(controller.advance(now.plusSeconds(600))).extracting(PolicyDecision::node, PolicyDecision::kind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("w0", Kind.CANCELLED),
                        org.assertj.core.groups.Tuple.tuple("w0", Kind.ESCALATED),
                        org.assertj.core.groups.Tuple.tuple("w2", Kind.CANCELLED),
                        org.assertj.core.groups.Tuple.tuple("w2", Kind.ESCALATED));
    }

    private IncrementalPolicyController controller(StormSettings storm) {
        return controller(storm, false);
    }

    private IncrementalPolicyController controller(StormSettings storm, boolean reporting) {
        Policy policy = new Policy("workers", NodeSelector.ALL, NodeRole.WORKER,
                List.of(new UnhealthyCondition("Ready", "False", Duration.ofMinutes(5)),
                        new UnhealthyCondition("Ready", "Unknown", Duration.ofMinutes(5))),
                List.of(new Remedy.External("reboot", Duration.ofMinutes(10), Map.of("kind", "Reboot")),
                        new Remedy.Fence("fence", Duration.ofMinutes(10))),
                Policy.DEFAULT_EXCLUSION_LABEL, Duration.ofMinutes(1), List.of(), storm);
        RemedyRunner runner = new RemedyRunner() {
            @Override
            public void start(String node, Remedy remedy, String reason) {
                started.add(node);
            }

            @Override
            public Progress progress(String node, Remedy remedy) {
                asked.add(node);
                return progress.getOrDefault(node, Progress.RUNNING);
            }

            @Override
            public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
                cancelled.add(node);
            }
        };
        StormGate gate = new StormGate(new SplittableRandom(3), QuorumGuard.oneAtATime(), s -> { }, T0);
        return reporting ? IncrementalPolicyController.reportingProgress(List.of(policy), runner, gate, d -> { })
                : new IncrementalPolicyController(List.of(policy), runner, gate, d -> { });
    }

    private static NodeStatus node(String name, String ready, Instant since) {
        return new NodeStatus(name, Map.of(), List.of(new NodeCondition("Ready", ready, since)));
    }
}
