package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.Observation.AdminCommand;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** PAUSE, RESUME, FORCE_STOP, CLEAR_ERROR and CONFIRM_OFF, and refusals of commands that do not apply. */
class FenceFlowAdminTest {

    private static final Duration STEP = Duration.ofSeconds(60);

    private static NodePlan oneBmc() {
        return FlowDriver.plan(StepPlan.none(STEP), new StepPlan(STEP, 2, List.of(List.of(BMC))), StepPlan.none(STEP));
    }

    @Test
    @DisplayName("PAUSE stops new operations, yet the result of the operation in flight is still recorded")
    void pauseStopsNewOperations() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc());
        d.after(Duration.ofSeconds(1)).admin(AdminCommand.PAUSE);
        assertThat(d.record.pausedAt()).contains(d.now);
        assertThat(d.record.inFlight()).isPresent();
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.flow.nextWake(d.record)).isEmpty();

        d.answerAfter(Duration.ofSeconds(2), FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.CONFIRM_OFF);
        assertThat(d.record.attempts()).last().satisfies(a -> {
            assertThat(a.operation()).isEqualTo("power_management L1 bmc off");
            assertThat(a.result()).isEqualTo(FenceStatus.SUCCEEDED);
        });
        assertThat(d.lastEvents(FenceEvent.OperationFinished.class)).hasSize(1);
        assertThat(d.last.effects()).as("no STATUS while paused").isEmpty();
        assertThat(d.record.inFlight()).isEmpty();

        NodeFence paused = d.record;
        d.tickAfter(Duration.ofMinutes(10));
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.record).as("not even the step deadline runs while paused").isEqualTo(paused);
    }

    @Test
    @DisplayName("RESUME shifts the step deadline and the current wait by the time paused, and continues")
    void resumeShiftsDeadlinesAndWaits() {
        FlowDriver d = FlowDriver.running(FlowDriver.settings().build(), oneBmc());
        Instant wait = d.record.waitUntil().orElseThrow();
        Instant deadline = d.record.stepDeadline();
        Instant since = d.record.stageSince();
        d.after(Duration.ofSeconds(1)).admin(AdminCommand.PAUSE);
        d.tickAt(wait.plusSeconds(30));
        assertThat(d.last.effects()).isEmpty();

        Duration paused = Duration.ofMinutes(5);
        d.at(d.record.pausedAt().orElseThrow().plus(paused)).admin(AdminCommand.RESUME);
        assertThat(d.record.pausedAt()).isEmpty();
        assertThat(d.record.waitUntil()).contains(wait.plus(paused));
        assertThat(d.record.stepDeadline()).isEqualTo(deadline.plus(paused));
        assertThat(d.record.stageSince()).isEqualTo(since.plus(paused));
        assertThat(d.record.stage()).isEqualTo(Stage.RACE_DELAY);
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.flow.nextWake(d.record)).contains(wait.plus(paused));

        d.tickAt(wait.plus(paused).minusMillis(1));
        assertThat(d.last.effects()).isEmpty();
        d.tickAt(wait.plus(paused));
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        assertThat(d.agentEffect().budget()).as("the whole shifted step budget after the race delay")
                .isEqualTo(Duration.between(d.now, deadline.plus(paused)));
    }

    @Test
    @DisplayName("RESUME with no wait pending issues the next operation at once, with the deadline shifted")
    void resumeIssuesNext() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc());
        Instant deadline = d.record.stepDeadline();
        d.admin(AdminCommand.PAUSE).answerAfter(Duration.ofSeconds(2), FenceStatus.SUCCEEDED, PowerState.OFF);
        Instant pausedAt = d.record.pausedAt().orElseThrow();
        d.after(Duration.ofMinutes(5)).admin(AdminCommand.RESUME);
        assertThat(d.record.stepDeadline()).isEqualTo(deadline.plus(Duration.between(pausedAt, d.now)));
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.STATUS);
        assertThat(d.record.stage()).isEqualTo(Stage.CONFIRM_OFF);
    }

    @Test
    @DisplayName("FORCE_STOP after remedy powered the node off ends in FINAL with an Alert and nothing in flight")
    void forceStopPoweredOff() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc());
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        assertThat(d.record.poweredOff()).isTrue();
        String release = d.inFlight().id();

        d.admin(AdminCommand.FORCE_STOP);
        assertThat(d.record.stage()).isEqualTo(Stage.FINISHED);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.record.inFlight()).isEmpty();
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.lastEvents(FenceEvent.Alert.class)).singleElement()
                .satisfies(a -> assertThat(a.reason()).contains("n1").contains("power it on by hand"));
        assertThat(d.lastEvents(FenceEvent.Transitioned.class)).singleElement()
                .satisfies(t -> assertThat(t.reason()).contains("alice"));

        NodeFence stopped = d.record;
        d.apply(new Observation.Completed(release, FenceStatus.SUCCEEDED, PowerState.UNKNOWN, "late"));
        assertThat(d.record).isEqualTo(stopped);
        assertThat(d.flow.nextWake(d.record)).isEmpty();
    }

    @Test
    @DisplayName("FORCE_STOP before any power operation ends in FINAL without an Alert")
    void forceStopDuringHold() {
        FlowDriver d = FlowDriver.decided();
        d.after(Duration.ofSeconds(3)).admin(AdminCommand.FORCE_STOP);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.events(FenceEvent.Alert.class)).isEmpty();
        assertThat(d.effects).isEmpty();
    }

    @Test
    @DisplayName("CLEAR_ERROR closes a flow in ERROR that is waiting to restart")
    void clearErrorBeforeRestart() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc());
        d.answer(FenceStatus.TIMED_OUT, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.ERROR);
        assertThat(d.record.gaveUp()).isFalse();
        d.admin(AdminCommand.CLEAR_ERROR);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        d.tickAfter(Duration.ofHours(1));
        assertThat(d.last.effects()).isEmpty();
    }

    static Stream<Arguments> refusals() {
        Supplier<FlowDriver> hold = FlowDriver::decided;
        Supplier<FlowDriver> paused = () -> FlowDriver.decided().admin(AdminCommand.PAUSE);
        Supplier<FlowDriver> released = () -> {
            FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc());
            return d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        };
        Supplier<FlowDriver> awaitReady = () -> released.get().answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN)
                .answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        Supplier<FlowDriver> finished = () -> FlowDriver.decided().readiness(true, Optional.empty());
        return Stream.of(
                Arguments.of(Named.of("HOLD", hold), AdminCommand.RESUME),
                Arguments.of(Named.of("HOLD", hold), AdminCommand.CLEAR_ERROR),
                Arguments.of(Named.of("paused HOLD", paused), AdminCommand.PAUSE),
                Arguments.of(Named.of("RELEASE (confirmed)", released), AdminCommand.CONFIRM_OFF),
                Arguments.of(Named.of("RELEASE (confirmed)", released), AdminCommand.CLEAR_ERROR),
                Arguments.of(Named.of("AWAIT_READY (DONE)", awaitReady), AdminCommand.CONFIRM_OFF),
                Arguments.of(Named.of("FINISHED", finished), AdminCommand.FORCE_STOP),
                Arguments.of(Named.of("FINISHED", finished), AdminCommand.PAUSE),
                Arguments.of(Named.of("FINISHED", finished), AdminCommand.RESUME),
                Arguments.of(Named.of("FINISHED", finished), AdminCommand.CLEAR_ERROR),
                Arguments.of(Named.of("FINISHED", finished), AdminCommand.CONFIRM_OFF));
    }

    @ParameterizedTest(name = "{1} in {0}")
    @MethodSource("refusals")
    @DisplayName("a command that does not apply produces a Refused event and changes nothing")
    void refused(Supplier<FlowDriver> setup, AdminCommand command) {
        FlowDriver d = setup.get();
        NodeFence before = d.record;
        d.admin(command);
        assertThat(d.record).isEqualTo(before);
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.last.events()).singleElement().isInstanceOfSatisfying(FenceEvent.Refused.class, r -> {
            assertThat(r.node()).isEqualTo("n1");
            assertThat(r.reason()).isNotBlank();
        });
    }
}
