package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A power level of self fencing (the {@code self-node} agent): its OFF read back is recorded as the assumption
 * {@link Confirmation.Kind#ASSUMED_RESET_AFTER_SAFE_TIME}, never as a power reading; a self method that refuses hands
 * over to the next level.
 */
class FenceFlowSelfFencingTest {

    private static final ResolvedMethod SELF = FlowDriver.method("self-node", FencingKind.SELF);
    private static final Duration STEP = Duration.ofMinutes(10);

    private static NodePlan plan(List<List<ResolvedMethod>> power) {
        return FlowDriver.plan(StepPlan.none(Duration.ofSeconds(60)), new StepPlan(STEP, 0, power),
                StepPlan.none(Duration.ofSeconds(60)));
    }

    @Test
    @DisplayName("STATUS reads ON while the safe time runs (no release), then OFF: the confirmation is the assumption,"
            + " the release and the history name it, and recovery sends ON and waits for Ready")
    void assumedAfterTheSafeTime() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), plan(List.of(List.of(SELF))));
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.CONFIRM_OFF);

        for (int i = 0; i < 5; i++) {
            d.answer(FenceStatus.SUCCEEDED, PowerState.ON).wake();
            assertThat(d.record.stage()).isEqualTo(Stage.CONFIRM_OFF);
            assertThat(d.agentEffect().action()).isEqualTo(FenceAction.STATUS);
            assertThat(d.record.confirmation()).isEmpty();
            assertThat(d.record.released()).isFalse();
        }

        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RELEASE_WORKLOADS);
        assertThat(d.record.confirmation()).hasValueSatisfying(c -> {
            assertThat(c.kind()).isEqualTo(Confirmation.Kind.ASSUMED_RESET_AFTER_SAFE_TIME);
            assertThat(c.isAssumption()).isTrue();
            assertThat(c.provesStopped()).isTrue();
            assertThat(c.source()).isEqualTo("self-node");
        });

        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.LIFT_OUT_OF_SERVICE);
        assertThat(d.events(FenceEvent.Transitioned.class)).anySatisfy(t -> assertThat(t.reason())
                .contains("workloads released on confirmation ASSUMED_RESET_AFTER_SAFE_TIME by self-node"));

        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.ON);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.poweredOff()).isFalse();
    }

    @Test
    @DisplayName("a self method that refuses to assume (OFF fails with the reason) hands over to the power level"
            + " after it, whose STATUS reading is the confirmation")
    void refusalEscalatesToTheNextLevel() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), plan(List.of(List.of(SELF),
                List.of(BMC))));
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.record.level()).isEqualTo(1);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.confirmation()).hasValueSatisfying(c -> {
            assertThat(c.kind()).isEqualTo(Confirmation.Kind.STATUS_READ_OFF);
            assertThat(c.source()).isEqualTo("bmc");
        });
    }

    @Test
    @DisplayName("a self method alone that refuses fails the step: nothing is released, the flow goes to FAILED with"
            + " the agent's reason")
    void refusalWithoutAnotherLevelReleasesNothing() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), plan(List.of(List.of(SELF))));
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.confirmation()).isEmpty();
        assertThat(d.record.released()).isFalse();
        assertThat(d.events(FenceEvent.Transitioned.class)).last().satisfies(t -> assertThat(t.reason())
                .contains("every level failed").contains("FAILED/UNKNOWN"));
    }
}
