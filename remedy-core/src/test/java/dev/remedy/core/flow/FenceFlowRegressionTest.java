package dev.remedy.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Defects found by the flow's own tests and the engine's property tests, each pinned down. */
class FenceFlowRegressionTest {

    private static final StepPlan ONE_BMC = new StepPlan(Duration.ofSeconds(60), 0, List.of(List.of(FlowDriver.BMC)));

    @Test
    @DisplayName("power on gets its own budget: a confirmation late in the power step does not strand the node off")
    void powerOnHasItsOwnBudget() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), FlowDriver.plan(
                StepPlan.none(Duration.ofSeconds(60)), ONE_BMC, StepPlan.none(Duration.ofSeconds(60))));
        d.answerAfter(Duration.ofSeconds(50), FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answerAfter(Duration.ofSeconds(5), FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        d.answerAfter(Duration.ofSeconds(4), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answerAfter(Duration.ofSeconds(2), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.ON);
        assertThat(d.record.stepDeadline()).isEqualTo(d.now.plusSeconds(60));
    }

    @Test
    @DisplayName("un-fencing gets its own budget after a late power on")
    void unfenceHasItsOwnBudget() {
        StepPlan fabric = new StepPlan(Duration.ofSeconds(30), 0, List.of(List.of(FlowDriver.method("fabric"))));
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), FlowDriver.plan(fabric, ONE_BMC,
                StepPlan.none(Duration.ofSeconds(60))));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF)
                .answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answerAfter(Duration.ofSeconds(59), FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        d.answerAfter(Duration.ofSeconds(20), FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
    }

    @Test
    @DisplayName("a paused flow does not count its operation lost; resuming shifts the operation's clock too")
    void pauseStopsTheLostOperationClock() {
        FlowSettings settings = FlowDriver.settings().build();
        FlowDriver d = FlowDriver.poweringOff(settings, FlowDriver.defaultPlan());
        Operation off = d.inFlight();
        d.after(Duration.ofSeconds(5)).admin(Observation.AdminCommand.PAUSE);
        d.after(Duration.ofMinutes(10)).tick();
        assertThat(d.record.inFlight().map(Operation::id)).as("not counted lost while paused").contains(off.id());
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        d.admin(Observation.AdminCommand.RESUME);
        assertThat(d.record.inFlight().orElseThrow().issuedAt()).isEqualTo(off.issuedAt().plus(Duration.ofMinutes(10)));
    }

    @Test
    @DisplayName("a cluster action that keeps failing backs off, then fails its step after the retry window")
    void clusterRetriesAreBounded() {
        FlowSettings settings = FlowDriver.settings().clusterRetryWindow(Duration.ofMinutes(2)).build();
        FlowDriver d = FlowDriver.poweringOff(settings, FlowDriver.defaultPlan());
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        Duration lastWait = Duration.ZERO;
        for (int i = 0; i < 100 && d.record.stage() == Stage.RELEASE; i++) {
            d.answerAfter(Duration.ofSeconds(1), FenceStatus.FAILED, PowerState.UNKNOWN);
            if (d.record.stage() == Stage.RELEASE) {
                Duration wait = Duration.between(d.now, d.record.waitUntil().orElseThrow());
                assertThat(wait).isGreaterThanOrEqualTo(lastWait).isLessThanOrEqualTo(settings.backoffMax());
                lastWait = wait;
                d.wake();
            }
        }
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.reason()).contains("kept failing");
        assertThat(lastWait).isEqualTo(settings.backoffMax());
        assertThat(d.events(FenceEvent.OperationIssued.class)).hasSizeLessThan(60);
    }

    @Test
    @DisplayName("a new flow after a settled one continues the operation numbering, so old operation ids never recur")
    void operationIdsNeverRecur() {
        FlowDriver first = FlowDriver.poweringOff(FlowDriver.settings().build(), FlowDriver.defaultPlan());
        Operation old = first.inFlight();
        first.admin(Observation.AdminCommand.FORCE_STOP);
        FenceFlow flow = new FenceFlow(FlowDriver.settings().build());
        NodeFence next = flow.decide(FlowDriver.NODE, first.now, "NotReady again", java.util.Optional.of(first.record),
                Duration.ZERO).record();
        assertThat(next.sequence()).isEqualTo(first.record.sequence());
        assertThat(next.version()).isEqualTo(first.record.version());
        Transition held = flow.apply(next, FlowDriver.defaultPlan(), new Observation.Tick(), first.now.plusSeconds(30));
        assertThat(held.effects()).singleElement().satisfies(e -> assertThat(e.operationId()).isNotEqualTo(old.id()));
    }

    @Test
    @DisplayName("the fence-race delay chosen by storm protection lengthens the hold before isolation")
    void raceDelayLengthensTheHold() {
        FlowSettings settings = FlowDriver.settings().build();
        NodeFence held = new FenceFlow(settings).decide(FlowDriver.NODE, FlowDriver.T0, "NotReady",
                java.util.Optional.empty(), Duration.ofSeconds(7)).record();
        assertThat(held.waitUntil()).contains(FlowDriver.T0.plus(settings.hold()).plusSeconds(7));
        Transition early = new FenceFlow(settings).apply(held, FlowDriver.defaultPlan(), new Observation.Tick(),
                FlowDriver.T0.plus(settings.hold()).plusSeconds(6));
        assertThat(early.effects()).isEmpty();
    }
}
