package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static dev.remedy.core.flow.FlowDriver.FABRIC;
import static dev.remedy.core.flow.FlowDriver.NODE_AGENT;
import static dev.remedy.core.flow.FlowDriver.SAN;
import static dev.remedy.core.flow.FlowDriver.SYSRQ;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Soft fencing is a gentle first level and never a blocker: when it fails on the last isolation level (the usual
 * cause is a dead host, which cannot take a soft reboot), power fencing follows, as in oVirt (soft fencing, then hard
 * fencing). A failing fabric or power isolation method still fails the isolation step.
 */
class FenceFlowSoftFallbackTest {

    private static final Duration ISOLATION_TIMEOUT = Duration.ofSeconds(30);

    /** Isolation levels as given (with {@code retries} retries), power management = bmc, no recovery. */
    private static NodePlan plan(int retries, List<List<ResolvedMethod>> isolation) {
        return FlowDriver.plan(new StepPlan(ISOLATION_TIMEOUT, retries, isolation),
                new StepPlan(Duration.ofSeconds(60), 0, List.of(List.of(BMC))), StepPlan.none(Duration.ofSeconds(60)));
    }


    /** From the OFF in flight to the bmc: confirms, releases, lifts the taint and powers on again. */
    private static FlowDriver powerFenceAndPowerOn(FlowDriver d) {
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().step()).isEqualTo(FenceStep.POWER_MANAGEMENT);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.confirmation()).hasValueSatisfying(c ->
                assertThat(c.kind()).isEqualTo(Confirmation.Kind.STATUS_READ_OFF));
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        return d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
    }

    private static List<String> isolationOperations(FlowDriver d) {
        return d.issuedDescriptions().stream().filter(o -> o.startsWith("isolation ")).toList();
    }

    /** The Transitioned event that entered RACE_DELAY (power fencing). */
    private static FenceEvent.Transitioned intoPowerFencing(FlowDriver d) {
        return d.events(FenceEvent.Transitioned.class).stream().filter(t -> t.to() == Stage.RACE_DELAY)
                .findFirst().orElseThrow(() -> new AssertionError("never entered RACE_DELAY"));
    }

    @Test
    @DisplayName("a soft reboot that fails on the only isolation level moves on to power fencing at once, not retried")
    void failedSoftRebootMovesOnToPowerFencing() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(2, List.of(List.of(SYSRQ))));
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.REBOOT);

        d.answerAfter(Duration.ofSeconds(3), FenceStatus.FAILED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).as("no grace after a failed soft method").isEqualTo(Stage.POWER_OFF);
        assertThat(d.record.state()).isEqualTo(FenceState.RUNNING);
        assertThat(d.record.retries()).as("the isolation step was not retried").isZero();
        assertThat(d.powerFencingReason()).contains("soft fencing").contains("sysrq").contains("failed")
                .contains("power fencing follows");
        assertThat(d.lastEvents(FenceEvent.Transitioned.class)).extracting(FenceEvent.Transitioned::to)
                .containsExactly(Stage.RACE_DELAY, Stage.POWER_OFF);
        assertThat(d.lastEvents(FenceEvent.Transitioned.class)).first().satisfies(t -> {
            assertThat(t.from()).isEqualTo(Stage.ISOLATE_AGENTS);
            assertThat(t.reason()).contains("soft fencing").contains("power fencing follows");
        });

        powerFenceAndPowerOn(d);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.stagesVisited()).doesNotContain(Stage.FAILED, Stage.UNFENCE);
        assertThat(d.issuedDescriptions()).containsExactly("cluster isolate", "isolation L1 sysrq reboot",
                "power_management L1 bmc off", "power_management L1 bmc status", "cluster release_workloads",
                "cluster lift_out_of_service", "power_management L1 bmc on");
        d.readiness(true, Optional.empty()).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
    }

    @Test
    @DisplayName("a soft reboot that times out (a dead host does not answer) moves on to power fencing, not FAILED")
    void timedOutSoftRebootMovesOnToPowerFencing() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(2, List.of(List.of(NODE_AGENT))));

        d.answerAfter(Duration.ofSeconds(30), FenceStatus.TIMED_OUT, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.powerFencingReason()).contains("soft fencing").contains("node-agent")
                .contains("power fencing follows");
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        assertThat(d.agentEffect().step()).isEqualTo(FenceStep.POWER_MANAGEMENT);
    }

    @Test
    @DisplayName("a soft reboot whose result never comes is counted lost (timed out) and power fencing follows")
    void lostSoftRebootMovesOnToPowerFencing() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(SYSRQ))));
        Operation reboot = d.inFlight();

        d.tickAt(reboot.issuedAt().plus(reboot.budget()).plus(d.flow.settings().operationGrace()));

        assertThat(d.lastEvents(FenceEvent.OperationFinished.class)).singleElement()
                .satisfies(f -> assertThat(f.result()).isEqualTo(FenceStatus.TIMED_OUT));
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().step()).isEqualTo(FenceStep.POWER_MANAGEMENT);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        assertThat(d.stagesVisited()).doesNotContain(Stage.FAILED);
    }

    @Test
    @DisplayName("a fabric level failing, then the soft last level failing: power fencing follows")
    void fabricThenSoftBothFailingMovesOn() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(1, List.of(List.of(FABRIC), List.of(SYSRQ))));

        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_AGENTS);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.REBOOT);
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.record.retries()).isZero();
        assertThat(intoPowerFencing(d).reason()).contains("soft fencing").contains("power fencing follows");
    }

    @Test
    @DisplayName("a level whose fabric method isolated but whose soft method failed moves on to power fencing")
    void fabricThenSoftInOneLevelMovesOn() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(2, List.of(List.of(FABRIC, NODE_AGENT))));

        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.REBOOT);
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.powerFencingReason()).contains("node-agent").contains("power fencing follows");
    }

    @Test
    @DisplayName("a soft method that cannot even start (step deadline passed) on the last level is no blocker either")
    void softMethodOutOfBudgetMovesOn() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(2, List.of(List.of(FABRIC, SYSRQ))));

        d.at(d.record.stepDeadline().plusMillis(1)).answer(FenceStatus.SUCCEEDED, PowerState.OFF);

        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.powerFencingReason()).contains("soft fencing").contains("sysrq").contains("power fencing follows");
        assertThat(isolationOperations(d)).containsExactly("isolation L1 fabric off");
        assertThat(d.agentEffect().step()).as("the operation in flight is power fencing").isEqualTo(
                FenceStep.POWER_MANAGEMENT);
        assertThat(d.agentEffects(FenceAction.REBOOT)).isEmpty();
    }

    @Test
    @DisplayName("a failing fabric method on the last level still fails the isolation step: retried, never power fenced")
    void failedFabricOnLastLevelStillBlocks() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().maxRestarts(0).build(),
                plan(1, List.of(List.of(SYSRQ), List.of(FABRIC))));

        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.agentEffect().level()).isEqualTo(1);
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_CLUSTER);
        assertThat(d.record.retries()).isEqualTo(1);
        assertThat(d.record.reason()).contains("every level failed").contains("retry 1 of 1");

        d.wake().answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN).answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.gaveUp()).isTrue();
        assertThat(d.stagesVisited()).doesNotContain(Stage.RACE_DELAY, Stage.POWER_OFF);
        assertThat(d.agentEffects(FenceAction.OFF)).allMatch(e -> e.step() == FenceStep.ISOLATION);
    }

    @Test
    @DisplayName("a soft method that succeeded does not excuse a fabric method after it failing on the last level")
    void softThenFailedFabricInOneLevelStillBlocks() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(SYSRQ, SAN))));

        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.reason()).contains("every level failed").doesNotContain("power fencing follows");
        assertThat(d.stagesVisited()).doesNotContain(Stage.RACE_DELAY);
    }

    @Test
    @DisplayName("a failing power method on the last isolation level still fails the isolation step")
    void failedPowerIsolationMethodStillBlocks() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(),
                plan(0, List.of(List.of(SYSRQ), List.of(FlowDriver.method("outlet")))));

        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN).answer(FenceStatus.FAILED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.stagesVisited()).doesNotContain(Stage.RACE_DELAY);
    }

    @Test
    @DisplayName("a soft reboot that succeeded, then Ready with a boot after the decision: DONE without any power-off")
    void softRebootThenRebootedAfterDecisionEndsWithoutPowerOff() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(SYSRQ))));
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.RACE_DELAY);

        d.after(Duration.ofSeconds(2)).readiness(true, Optional.of(d.now.minusSeconds(1)));

        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.state()).isEqualTo(FenceState.DONE);
        assertThat(d.record.poweredOff()).isFalse();
        assertThat(d.last.effects()).isEmpty();
        d.readiness(true, Optional.of(d.now.minusSeconds(1)));
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RECOVER);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.agentEffects(FenceAction.OFF)).as("never powered off").isEmpty();
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
        assertThat(d.issuedDescriptions()).containsExactly("cluster isolate", "isolation L1 sysrq reboot",
                "cluster recover");
    }

    @Test
    @DisplayName("a failed soft reboot that rebooted the node anyway: the new boot, reported while the OFF that follows"
            + " is in flight, confirms the fence; nothing is released and the node is powered on again")
    void failedSoftRebootThenRebootedEndsWithoutRelease() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(SYSRQ))));
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);

        d.after(Duration.ofSeconds(1)).readiness(true, Optional.of(d.now));
        assertThat(d.record.confirmation()).hasValueSatisfying(c ->
                assertThat(c.kind()).isEqualTo(Confirmation.Kind.REBOOTED_AFTER_DECISION));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);

        assertThat(d.record.stage()).isEqualTo(Stage.LIFT_OUT_OF_SERVICE);
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.poweredOff()).isFalse();
    }

    @Test
    @DisplayName("a soft reboot that succeeded, then a boot after the decision reported while the OFF is in flight:"
            + " confirmed by reboot, no release, and the node is powered on again")
    void softRebootThenRebootedWhileOffInFlight() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(SYSRQ))));
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.wake();
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);

        d.after(Duration.ofSeconds(1)).readiness(true, Optional.of(d.now.minusSeconds(1)));
        assertThat(d.record.confirmation()).hasValueSatisfying(c ->
                assertThat(c.kind()).isEqualTo(Confirmation.Kind.REBOOTED_AFTER_DECISION));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.LIFT_OUT_OF_SERVICE);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.ON);

        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.poweredOff()).isFalse();
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
    }
}
