package dev.remedy.fence.kube.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.policy.PolicyDecision;
import dev.remedy.core.storm.Admission;
import dev.remedy.core.storm.StormSignal;
import dev.remedy.spi.FenceStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RemedyMetricsTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RemedyMetrics metrics = new RemedyMetrics(registry);

    private double count(String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    private static PolicyDecision decision(String node, PolicyDecision.Kind kind) {
        return new PolicyDecision(T, node, "workers", kind, "snr", "why");
    }

    private static StormSignal denied(String node, Admission.Denied d) {
        return new StormSignal.AdmissionDenied(node, T, d);
    }

    @Test
    @DisplayName("remediations started, succeeded and failed are counted per policy from the decisions")
    void remediationCounters() {
        metrics.accept(decision("w1", PolicyDecision.Kind.STARTED));
        metrics.accept(decision("w2", PolicyDecision.Kind.STARTED));
        metrics.accept(decision("w1", PolicyDecision.Kind.ESCALATED));
        metrics.accept(decision("w1", PolicyDecision.Kind.RECOVERED));
        metrics.accept(decision("w2", PolicyDecision.Kind.EXHAUSTED));
        assertThat(count(RemedyMetrics.STARTED, "policy", "workers")).isEqualTo(2);
        assertThat(count(RemedyMetrics.SUCCEEDED, "policy", "workers")).isEqualTo(1);
        assertThat(count(RemedyMetrics.FAILED, "policy", "workers")).isEqualTo(1);
    }

    @Test
    @DisplayName("a refusal counts once per node and rule in a row, tagged with the rule and the verdict")
    void refusals() {
        Admission.Refused storm = new Admission.Refused(Admission.Reason.MIN_HEALTHY, "7 of 10 healthy");
        metrics.onSignal(denied("w1", storm));
        metrics.onSignal(denied("w1", storm));
        metrics.onSignal(denied("w2", storm));
        metrics.onSignal(denied("w1", new Admission.Held(Admission.Reason.FENCE_RATE, "10 in 10m")));
        metrics.accept(decision("w3", PolicyDecision.Kind.PAUSED));
        assertThat(count(RemedyMetrics.REFUSED, "rule", "minHealthy", "verdict", "refused")).isEqualTo(2);
        assertThat(count(RemedyMetrics.REFUSED, "rule", "fencesPerWindow", "verdict", "held")).isEqualTo(1);
        assertThat(count(RemedyMetrics.REFUSED, "rule", "pauseRequests", "verdict", "held")).isEqualTo(1);

        metrics.accept(decision("w2", PolicyDecision.Kind.STARTED));
        metrics.onSignal(denied("w2", storm));
        assertThat(count(RemedyMetrics.REFUSED, "rule", "minHealthy", "verdict", "refused")).isEqualTo(3);
    }

    @Test
    @DisplayName("time to safe runs from the decision to the release of workloads; a flow ended before is not timed")
    void timeToSafe() {
        metrics.onEvent(new FenceEvent.Transitioned("w1", T, Stage.HOLD, Stage.HOLD, "fencing decided: x"));
        metrics.onEvent(new FenceEvent.Transitioned("w2", T, Stage.HOLD, Stage.HOLD, "fencing decided: y"));
        metrics.onEvent(new FenceEvent.Transitioned("w1", T.plusSeconds(40), Stage.CONFIRM_OFF, Stage.RELEASE, "off"));
        metrics.onEvent(new FenceEvent.Transitioned("w1", T.plusSeconds(95), Stage.RELEASE,
                Stage.LIFT_OUT_OF_SERVICE, "workloads released"));
        metrics.onEvent(new FenceEvent.Transitioned("w2", T.plusSeconds(20), Stage.HOLD, Stage.FINISHED, "stopped"));
        metrics.onEvent(new FenceEvent.Transitioned("w2", T.plusSeconds(30), Stage.RELEASE,
                Stage.LIFT_OUT_OF_SERVICE, "not after a decision seen"));
        var timer = registry.get(RemedyMetrics.TIME_TO_SAFE).timer();
        assertThat(timer.count()).isEqualTo(1);
        assertThat(timer.totalTime(TimeUnit.SECONDS)).isEqualTo(95.0);
    }

    @Test
    @DisplayName("agent latency is timed by agent type and outcome; cluster actions are not agents")
    void agentLatency() {
        metrics.onEvent(new FenceEvent.OperationIssued("w1", T, "op-1", "power_management L1 bmc off"));
        metrics.onEvent(new FenceEvent.OperationIssued("w1", T, "op-2", "cluster isolate"));
        metrics.onEvent(new FenceEvent.OperationIssued("w2", T, "op-3", "power_management L1 pdu off"));
        metrics.onEvent(new FenceEvent.OperationFinished("w1", T.plusSeconds(3), "op-1",
                "power_management L1 bmc off", FenceStatus.SUCCEEDED, "", "ipmi"));
        metrics.onEvent(new FenceEvent.OperationFinished("w1", T.plusSeconds(1), "op-2", "cluster isolate",
                FenceStatus.SUCCEEDED, "", FenceEvent.OperationFinished.CLUSTER));
        metrics.onEvent(new FenceEvent.OperationFinished("w2", T.plusSeconds(60), "op-3",
                "power_management L1 pdu off", FenceStatus.TIMED_OUT, "no answer"));
        var ipmi = registry.get(RemedyMetrics.AGENT_LATENCY).tags("agent", "ipmi", "outcome", "succeeded").timer();
        assertThat(ipmi.count()).isEqualTo(1);
        assertThat(ipmi.totalTime(TimeUnit.SECONDS)).isEqualTo(3.0);
        var unknown = registry.get(RemedyMetrics.AGENT_LATENCY).tags("agent", "unknown", "outcome", "timed_out")
                .timer();
        assertThat(unknown.totalTime(TimeUnit.SECONDS)).isEqualTo(60.0);
        assertThat(registry.find(RemedyMetrics.AGENT_LATENCY).tag("agent", "cluster").timer()).isNull();
    }

    @Test
    @DisplayName("the nodes gauge reads the supplier each time")
    void nodesGauge() {
        AtomicInteger tracked = new AtomicInteger(3);
        metrics.trackNodes(tracked::get);
        assertThat(registry.get(RemedyMetrics.NODES).gauge().value()).isEqualTo(3.0);
        tracked.set(5000);
        assertThat(registry.get(RemedyMetrics.NODES).gauge().value()).isEqualTo(5000.0);
    }
}
