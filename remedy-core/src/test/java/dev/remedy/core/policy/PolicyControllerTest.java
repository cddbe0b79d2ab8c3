package dev.remedy.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.policy.PolicyDecision.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PolicyControllerTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Remedy SOFT = new Remedy.External("soft", Duration.ofMinutes(5),
            Map.of("kind", "SelfNodeRemediation"));
    private static final Remedy FENCE = new Remedy.Fence("fence", Duration.ofMinutes(10));

    private final FakeRunner runner = new FakeRunner();
    private final List<PolicyDecision> decisions = new ArrayList<>();

    @Test
    @DisplayName("a node is remediated only once its condition has held for the duration")
    void startsAfterDuration() {
        PolicyController controller = controller(workers(), AdmissionGate.OPEN);
        NodeStatus node = worker("w1", "Unknown", T0);
        assertThat(controller.evaluate(List.of(node), T0.plusSeconds(299))).isEmpty();
        assertThat(controller.evaluate(List.of(node), T0.plusSeconds(300)))
                .extracting(PolicyDecision::kind, PolicyDecision::remedy).containsExactly(tuple(Kind.STARTED, "soft"));
        assertThat(runner.started).containsExactly("w1:soft");
    }

    @Test
    @DisplayName("flipping from Ready=Unknown to Ready=False neither restarts nor escalates early")
    void flipDoesNotRestartOrEscalate() {
        PolicyController controller = controller(workers(), AdmissionGate.OPEN);
        controller.evaluate(List.of(worker("w1", "Unknown", T0)), T0.plusSeconds(300));
        Instant flip = T0.plusSeconds(400);
        assertThat(controller.evaluate(List.of(worker("w1", "False", flip)), flip)).isEmpty();
        assertThat(controller.evaluate(List.of(worker("w1", "False", flip)), T0.plusSeconds(599))).isEmpty();
        assertThat(runner.started).containsExactly("w1:soft");
        assertThat(controller.evaluate(List.of(worker("w1", "False", flip)), T0.plusSeconds(600)))
                .extracting(PolicyDecision::kind).containsExactly(Kind.CANCELLED, Kind.ESCALATED);
        assertThat(runner.cancelled).containsExactly("w1:soft");
        assertThat(runner.causes).as("the remediator is told it timed out").containsExactly(
                RemedyRunner.Cancellation.TIMED_OUT);
        assertThat(runner.started).containsExactly("w1:soft", "w1:fence");
    }

    @Test
    @DisplayName("a node flapping between two unhealthy conditions from the start is remediated after the duration")
    void flappingBeforeStart() {
        PolicyController controller = controller(workers(), AdmissionGate.OPEN);
        List<PolicyDecision> made = new ArrayList<>();
        for (int second = 0; second <= 320; second += 20) {
            String status = (second / 20) % 2 == 0 ? "Unknown" : "False";
            made.addAll(controller.evaluate(List.of(worker("w1", status, T0.plusSeconds(second))),
                    T0.plusSeconds(second)));
        }
        assertThat(made).extracting(PolicyDecision::kind, PolicyDecision::at)
                .containsExactly(tuple(Kind.STARTED, T0.plusSeconds(300)));
    }

    @Test
    @DisplayName("a remedy that fails escalates at once, without waiting for its timeout")
    void failureEscalatesAtOnce() {
        PolicyController controller = controller(workers(), AdmissionGate.OPEN);
        NodeStatus node = worker("w1", "False", T0);
        controller.evaluate(List.of(node), T0.plusSeconds(300));
        runner.progress.put("w1:soft", RemedyRunner.Progress.FAILED);
        assertThat(controller.evaluate(List.of(node), T0.plusSeconds(310)))
                .extracting(PolicyDecision::kind, PolicyDecision::remedy).containsExactly(tuple(Kind.ESCALATED, "fence"));
        assertThat(runner.cancelled).isEmpty();
    }

    @Test
    @DisplayName("a failed external remedy escalated past is removed once the node is healthy, as NodeHealthCheck does")
    void failedExternalRemovedWhenHealthy() {
        PolicyController controller = controller(workers(), AdmissionGate.OPEN);
        NodeStatus node = worker("w1", "False", T0);
        controller.evaluate(List.of(node), T0.plusSeconds(300));
        runner.progress.put("w1:soft", RemedyRunner.Progress.FAILED);
        controller.evaluate(List.of(node), T0.plusSeconds(310));
        assertThat(runner.cancelled).as("kept while the node is unhealthy: the remediator's record").isEmpty();
        NodeStatus healthy = worker("w1", "True", T0.plusSeconds(400));
        assertThat(controller.evaluate(List.of(healthy), T0.plusSeconds(400))).isEmpty();
        assertThat(controller.evaluate(List.of(healthy), T0.plusSeconds(460)))
                .extracting(PolicyDecision::kind).containsExactly(Kind.RECOVERED);
        assertThat(runner.cancelled).containsExactly("w1:soft");
        assertThat(runner.causes).containsExactly(RemedyRunner.Cancellation.NODE_HEALTHY);
    }

    @Test
    @DisplayName("when the ladder runs out the node is reported once and left alone")
    void exhausted() {
        PolicyController controller = controller(workers(), AdmissionGate.OPEN);
        NodeStatus node = worker("w1", "False", T0);
        controller.evaluate(List.of(node), T0.plusSeconds(300));
        controller.evaluate(List.of(node), T0.plusSeconds(600));
        assertThat(controller.evaluate(List.of(node), T0.plusSeconds(1200)))
                .extracting(PolicyDecision::kind).containsExactly(Kind.CANCELLED, Kind.EXHAUSTED);
        assertThat(controller.evaluate(List.of(node), T0.plusSeconds(5000))).isEmpty();
        assertThat(runner.started).containsExactly("w1:soft", "w1:fence");
    }

    @Test
    @DisplayName("a node healthy for the healthy delay ends its remediation; a relapse before that does not")
    void healthyDelay() {
        PolicyController controller = controller(workers(), AdmissionGate.OPEN);
        controller.evaluate(List.of(worker("w1", "False", T0)), T0.plusSeconds(300));
        NodeStatus healthy = worker("w1", "True", T0.plusSeconds(320));
        assertThat(controller.evaluate(List.of(healthy), T0.plusSeconds(320))).isEmpty();
        assertThat(controller.evaluate(List.of(worker("w1", "False", T0.plusSeconds(330))), T0.plusSeconds(330)))
                .isEmpty();
        assertThat(controller.evaluate(List.of(healthy), T0.plusSeconds(340))).isEmpty();
        assertThat(controller.evaluate(List.of(healthy), T0.plusSeconds(399))).isEmpty();
        assertThat(controller.evaluate(List.of(healthy), T0.plusSeconds(400)))
                .extracting(PolicyDecision::kind).containsExactly(Kind.RECOVERED);
        assertThat(runner.cancelled).as("the external remediation object is removed").containsExactly("w1:soft");
        assertThat(runner.causes).containsExactly(RemedyRunner.Cancellation.NODE_HEALTHY);
        assertThat(controller.remediating()).isZero();
    }

    @Test
    @DisplayName("excluded nodes, other roles and paused policies start nothing; running remediations go on")
    void exclusionRolesAndPause() {
        Policy paused = new Policy("workers", NodeSelector.ALL, NodeRole.WORKER, conditions(), List.of(SOFT, FENCE),
                Policy.DEFAULT_EXCLUSION_LABEL, Duration.ofMinutes(1), List.of("upgrade-operator"));
        PolicyController controller = controller(List.of(paused), AdmissionGate.OPEN);
        NodeStatus excluded = new NodeStatus("x1", Map.of(Policy.DEFAULT_EXCLUSION_LABEL, ""), ready("False", T0));
        NodeStatus controlPlane = new NodeStatus("cp1", Map.of(NodeStatus.CONTROL_PLANE_LABEL, ""), ready("False", T0));
        NodeStatus worker = worker("w1", "False", T0);
        List<PolicyDecision> made = controller.evaluate(List.of(excluded, controlPlane, worker), T0.plusSeconds(300));
        assertThat(made).extracting(PolicyDecision::node, PolicyDecision::kind).containsExactly(tuple("w1", Kind.PAUSED));
        assertThat(controller.evaluate(List.of(worker), T0.plusSeconds(310))).as("reported once").isEmpty();
        assertThat(runner.started).isEmpty();
    }

    @Test
    @DisplayName("storm protection holds a start back (reported once per reason) and admits it later")
    void gateHoldsBack() {
        boolean[] open = {false};
        AdmissionGate gate = (node, policy, pool, now) -> open[0] ? Optional.empty()
                : Optional.of(pool.unhealthy() + " of " + pool.total() + " unhealthy");
        PolicyController controller = controller(workers(), gate);
        List<NodeStatus> pool = List.of(worker("w1", "False", T0), worker("w2", "True", T0));
        assertThat(controller.evaluate(pool, T0.plusSeconds(300))).extracting(PolicyDecision::kind, PolicyDecision::reason)
                .containsExactly(tuple(Kind.HELD, "1 of 2 unhealthy"));
        assertThat(controller.evaluate(pool, T0.plusSeconds(310))).isEmpty();
        open[0] = true;
        assertThat(controller.evaluate(pool, T0.plusSeconds(320))).extracting(PolicyDecision::kind)
                .containsExactly(Kind.STARTED);
    }

    @Test
    @DisplayName("a node belongs to the first policy that covers it")
    void firstPolicyWins() {
        Policy gpu = new Policy("gpu", new NodeSelector(Map.of("gpu", "true")), NodeRole.WORKER, conditions(),
                List.of(FENCE), Policy.DEFAULT_EXCLUSION_LABEL, Duration.ZERO, List.of());
        PolicyController controller = controller(List.of(gpu, workers().get(0)), AdmissionGate.OPEN);
        NodeStatus node = new NodeStatus("g1", Map.of("gpu", "true"), ready("False", T0));
        assertThat(controller.evaluate(List.of(node), T0.plusSeconds(300))).extracting(PolicyDecision::policy)
                .containsExactly("gpu");
    }

    @Test
    @DisplayName("a node covered by several policies is remediated by the first under which it is unhealthy")
    void firstUnhealthyPolicyRemediates() {
        Policy ready = workers().get(0);
        Policy disk = new Policy("disk", NodeSelector.ALL, NodeRole.WORKER,
                List.of(new UnhealthyCondition("DiskPressure", "True", Duration.ofMinutes(10))), List.of(FENCE),
                Policy.DEFAULT_EXCLUSION_LABEL, Duration.ZERO, List.of());
        PolicyController controller = controller(List.of(ready, disk), AdmissionGate.OPEN);
        NodeStatus pressured = new NodeStatus("w1", Map.of(), List.of(new NodeCondition("Ready", "True", T0),
                new NodeCondition("DiskPressure", "True", T0)));
        assertThat(controller.evaluate(List.of(pressured), T0.plusSeconds(600)))
                .extracting(PolicyDecision::policy, PolicyDecision::kind).containsExactly(tuple("disk", Kind.STARTED));
        assertThat(controller.evaluate(List.of(pressured), T0.plusSeconds(700))).as("one remediation at a time")
                .isEmpty();
    }

    @Test
    @DisplayName("durations too long to add to a date (PT2562047788015215H) mean 'never', in both controllers")
    void hugeDurationsSaturate() {
        Duration huge = Duration.ofHours(2_562_047_788_015_215L);
        Policy patient = new Policy("patient", NodeSelector.ALL, NodeRole.WORKER,
                List.of(new UnhealthyCondition("Ready", "Unknown", huge)), List.of(new Remedy.Fence("fence", huge)),
                Policy.DEFAULT_EXCLUSION_LABEL, huge, List.of());
        PolicyController controller = controller(List.of(patient), AdmissionGate.OPEN);
        NodeStatus node = worker("w1", "Unknown", T0);
        assertThat(controller.evaluate(List.of(node), T0.plus(Duration.ofDays(365 * 100)))).isEmpty();
        assertThat(runner.started).isEmpty();

        IncrementalPolicyController incremental = new IncrementalPolicyController(List.of(patient), runner,
                AdmissionGate.OPEN, decisions::add);
        incremental.observe(node, T0);
        assertThat(incremental.advance(T0.plus(Duration.ofDays(365 * 100)))).isEmpty();
        assertThat(runner.started).isEmpty();
    }

    private PolicyController controller(List<Policy> policies, AdmissionGate gate) {
        return new PolicyController(policies, runner, gate, decisions::add);
    }

    private static List<Policy> workers() {
        return List.of(new Policy("workers", NodeSelector.ALL, NodeRole.WORKER, conditions(), List.of(SOFT, FENCE),
                Policy.DEFAULT_EXCLUSION_LABEL, Duration.ofMinutes(1), List.of()));
    }

    private static List<UnhealthyCondition> conditions() {
        return List.of(new UnhealthyCondition("Ready", "False", Duration.ofMinutes(5)),
                new UnhealthyCondition("Ready", "Unknown", Duration.ofMinutes(5)));
    }

    private static NodeStatus worker(String name, String ready, Instant since) {
        return new NodeStatus(name, Map.of(), ready(ready, since));
    }

    private static List<NodeCondition> ready(String status, Instant since) {
        return List.of(new NodeCondition("Ready", status, since));
    }

    private static org.assertj.core.groups.Tuple tuple(Object... values) {
        return org.assertj.core.groups.Tuple.tuple(values);
    }

    /** Records starts and cancels; progress is RUNNING unless set. */
    private static final class FakeRunner implements RemedyRunner {
        final List<String> started = new ArrayList<>();
        final List<String> cancelled = new ArrayList<>();
        final List<Cancellation> causes = new ArrayList<>();
        final Map<String, Progress> progress = new HashMap<>();

        @Override
        public void start(String node, Remedy remedy, String reason) {
            started.add(node + ":" + remedy.name());
        }

        @Override
        public Progress progress(String node, Remedy remedy) {
            return progress.getOrDefault(node + ":" + remedy.name(), Progress.RUNNING);
        }

        @Override
        public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
            cancelled.add(node + ":" + remedy.name());
            causes.add(cause);
        }
    }
}
