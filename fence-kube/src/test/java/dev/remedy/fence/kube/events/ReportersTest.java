package dev.remedy.fence.kube.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.Confirmation;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.policy.PolicyDecision;
import dev.remedy.core.storm.Admission;
import dev.remedy.core.storm.StormSignal;
import dev.remedy.spi.FenceStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReportersTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    private final List<KubeEvents.Note> notes = new ArrayList<>();

    private List<String> on(String kind) {
        return notes.stream().filter(n -> n.regarding().getKind().equals(kind)).map(KubeEvents.Note::reason).toList();
    }

    @Test
    @DisplayName("a fence flow: the Node gets decision, confirmation, release, recovery and end; the NodeFence also operations")
    void fenceFlow() {
        FenceEventReporter reporter = new FenceEventReporter(notes::add, true);
        reporter.onEvent(new FenceEvent.Transitioned("w1", T, Stage.HOLD, Stage.HOLD, "fencing decided: NotReady"));
        reporter.onEvent(new FenceEvent.Transitioned("w1", T, Stage.HOLD, Stage.ISOLATE_CLUSTER, "hold over"));
        reporter.onEvent(new FenceEvent.OperationIssued("w1", T, "op-1", "power_management L1 bmc off"));
        reporter.onEvent(new FenceEvent.OperationFinished("w1", T, "op-1", "power_management L1 bmc off",
                FenceStatus.FAILED, "connection refused", "ipmi"));
        reporter.onEvent(new FenceEvent.Confirmed("w1", T, new Confirmation(Confirmation.Kind.STATUS_READ_OFF,
                "bmc", T)));
        reporter.onEvent(new FenceEvent.Transitioned("w1", T, Stage.RELEASE, Stage.LIFT_OUT_OF_SERVICE, "done"));
        reporter.onEvent(new FenceEvent.Transitioned("w1", T, Stage.POWER_ON, Stage.AWAIT_READY, "on"));
        reporter.onEvent(new FenceEvent.Transitioned("w1", T, Stage.RECOVER_CLUSTER, Stage.FINISHED, "recovered"));

        assertThat(on("Node")).containsExactly("FenceDecided", "FenceConfirmed", "WorkloadsReleased",
                "RecoveryStarted", "FenceFinished");
        assertThat(on("NodeFence")).containsExactly("FenceDecided", "OperationIssued", "OperationFailed",
                "FenceConfirmed", "WorkloadsReleased", "RecoveryStarted", "FenceFinished");
        assertThat(notes).filteredOn(n -> n.reason().equals("OperationFailed")).singleElement().satisfies(n -> {
            assertThat(n.warning()).isTrue();
            assertThat(n.note()).contains("FAILED", "connection refused");
            assertThat(n.regarding().getApiVersion()).isEqualTo("remedy.dev/v1alpha1");
            assertThat(n.regarding().getName()).isEqualTo("w1");
        });
        assertThat(notes).filteredOn(n -> n.reason().equals("FenceConfirmed"))
                .allSatisfy(n -> assertThat(n.note()).contains("STATUS_READ_OFF", "bmc"));
    }

    @Test
    @DisplayName("failure, refusal and alerts are Warnings on the Node; without NodeFences only the Node")
    void warnings() {
        FenceEventReporter reporter = new FenceEventReporter(notes::add, false);
        reporter.onEvent(new FenceEvent.Transitioned("w1", T, Stage.POWER_OFF, Stage.FAILED, "no level left"));
        reporter.onEvent(new FenceEvent.Refused("w1", T, "already in a fence flow"));
        reporter.onEvent(new FenceEvent.Alert("w1", T, "fencing of w1 gave up: no method answered"));
        assertThat(on("Node")).containsExactly("FenceFailed", "FenceRefused", "FenceAlert");
        assertThat(on("NodeFence")).isEmpty();
        assertThat(notes).allSatisfy(n -> assertThat(n.warning()).isTrue());
        assertThat(notes.get(2).note()).contains("gave up");
    }

    @Test
    @DisplayName("storm denials name the rule and the counts on the Node; pool signals go to the pool's object")
    void storm() {
        StormEventReporter reporter = new StormEventReporter(notes::add,
                Optional.of(References.node("pool-holder")));
        reporter.onSignal(new StormSignal.AdmissionDenied("w1", T, new Admission.Refused(
                Admission.Reason.MIN_HEALTHY, "7 of 10 healthy, minHealthy 80%")));
        reporter.onSignal(new StormSignal.AdmissionDenied("w2", T, new Admission.Held(
                Admission.Reason.FENCE_RATE, "10 fences in 10m")));
        reporter.onSignal(new StormSignal.StormStarted(T, Admission.Reason.MIN_HEALTHY, "7 of 10 healthy"));
        assertThat(notes).extracting(KubeEvents.Note::reason)
                .containsExactly("StormRefused", "StormHeld", "StormStarted");
        assertThat(notes.get(0).note()).contains("minHealthy", "7 of 10 healthy, minHealthy 80%");
        assertThat(notes.get(0).regarding().getName()).isEqualTo("w1");
        assertThat(notes.get(1).note()).contains("fencesPerWindow", "held back");
        assertThat(notes.get(2).regarding().getName()).isEqualTo("pool-holder");

        notes.clear();
        new StormEventReporter(notes::add, Optional.empty()).onSignal(new StormSignal.StormEnded(T, "ok"));
        assertThat(notes).isEmpty();
    }

    @Test
    @DisplayName("policy decisions use NodeHealthCheck's reasons where they match")
    void decisions() {
        StormEventReporter reporter = new StormEventReporter(notes::add, Optional.empty());
        reporter.accept(new PolicyDecision(T, "w1", "workers", PolicyDecision.Kind.STARTED, "snr", "unhealthy"));
        reporter.accept(new PolicyDecision(T, "w1", "workers", PolicyDecision.Kind.HELD, "", "held (fence_rate)"));
        reporter.accept(new PolicyDecision(T, "w1", "workers", PolicyDecision.Kind.RECOVERED, "snr", "healthy"));
        assertThat(notes).extracting(KubeEvents.Note::reason)
                .containsExactly("RemediationStarted", "RemediationCannotStart", "RemediationFinished");
        assertThat(notes).extracting(KubeEvents.Note::warning).containsExactly(false, true, false);
        assertThat(notes.get(1).note()).contains("workers", "held (fence_rate)");
    }
}
