package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static dev.remedy.core.flow.FlowDriver.FABRIC;
import static dev.remedy.core.flow.FlowDriver.REJOIN;
import static dev.remedy.core.flow.FlowDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Step deadlines, operation budgets, the hold and the wait for Ready. */
class FenceFlowDeadlinesTest {

    private static final Duration STEP = Duration.ofSeconds(60);

    private static NodePlan oneBmc() {
        return FlowDriver.plan(StepPlan.none(STEP), new StepPlan(STEP, 2, List.of(List.of(BMC))), StepPlan.none(STEP));
    }

    @Test
    @DisplayName("operation budgets split the time left in the step over the levels and methods still to try")
    void budgetsSplitTimeLeft() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), FlowDriver.defaultPlan());
        Instant deadline = d.record.stepDeadline();
        assertThat(Duration.between(d.now, deadline)).as("the whole step is left").isEqualTo(Duration.ofSeconds(60));
        assertThat(d.agentEffect().budget()).as("level 1 of 2").isEqualTo(Duration.ofSeconds(30));

        d.answerAfter(Duration.ofSeconds(5), FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.agentEffect().level()).isEqualTo(1);
        assertThat(d.agentEffect().budget()).as("last level, method 1 of 2").isEqualTo(Duration.ofMillis(27_500));
        d.answerAfter(Duration.ofSeconds(10), FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.agentEffect().budget()).as("STATUS of method 1 of 2").isEqualTo(Duration.ofMillis(22_500));
        d.answerAfter(Duration.ofSeconds(4), FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.agentEffect().budget()).as("OFF to the last method").isEqualTo(Duration.ofSeconds(41));
    }

    @Test
    @DisplayName("an agent operation is not started with less than the minimum budget: the attempt fails instead")
    void tooLittleBudgetFails() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc());
        Instant deadline = d.record.stepDeadline();
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.at(deadline.minusMillis(10_500)).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.waitUntil()).contains(deadline.minusMillis(500));
        d.wake();
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.reason()).contains("500 ms");
    }

    @Test
    @DisplayName("the step deadline passing while STATUS polling waits fails the attempt, not retried, never released")
    void deadlineWhilePolling() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc());
        Instant deadline = d.record.stepDeadline();
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.at(deadline.minusMillis(500)).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.waitUntil().orElseThrow()).isAfter(deadline);
        assertThat(d.flow.nextWake(d.record)).contains(deadline);

        NodeFence waiting = d.record;
        d.tickAt(deadline.minusMillis(1));
        assertThat(d.record).isEqualTo(waiting);
        d.tickAt(deadline);
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.retries()).as("a deadline is a timeout: no retry").isZero();
        assertThat(d.record.reason()).contains("deadline");
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
    }

    @Test
    @DisplayName("Ready during the hold ends the flow in FINAL without any effect; not Ready changes nothing")
    void readyDuringHold() {
        FlowDriver d = FlowDriver.decided();
        NodeFence held = d.record;
        d.after(Duration.ofSeconds(10)).readiness(false, Optional.empty());
        assertThat(d.record).isEqualTo(held);
        d.after(Duration.ofSeconds(10)).readiness(true, Optional.empty());
        assertThat(d.record.stage()).isEqualTo(Stage.FINISHED);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.effects).isEmpty();
        d.tickAt(Duration.ofMinutes(5));
        assertThat(d.effects).isEmpty();
        assertThat(d.events(FenceEvent.OperationIssued.class)).isEmpty();
    }

    @Test
    @DisplayName("Ready during the race delay, before any power operation, skips power management to DONE")
    void readyDuringRaceDelay() {
        FlowDriver d = FlowDriver.running(FlowDriver.settings().build(), oneBmc());
        d.after(Duration.ofSeconds(1)).readiness(true, Optional.empty());
        assertThat(d.record.state()).isEqualTo(FenceState.DONE);
        assertThat(d.agentEffects(FenceAction.OFF)).isEmpty();
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
    }

    @Test
    @DisplayName("DONE waits awaitReady for Ready, then goes to ERROR")
    void awaitReadyTimesOut() {
        FlowSettings settings = FlowDriver.settings().build();
        FlowDriver d = FlowDriver.poweringOff(settings, oneBmc());
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        Instant since = d.now;
        NodeFence waiting = d.record;

        d.at(since.plus(settings.awaitReady()).minusMillis(1)).readiness(false, Optional.empty());
        d.tick();
        assertThat(d.record).isEqualTo(waiting);
        d.tickAt(since.plus(settings.awaitReady()));
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.state()).isEqualTo(FenceState.ERROR);
        assertThat(d.record.reason()).contains("not Ready within");
    }

    @Test
    @DisplayName("under random results and delays (200 seeded runs), no agent budget exceeds the time left in its step, "
            + "no release precedes a confirmation, and a STATUS confirmation only follows a STATUS that read OFF")
    void randomRuns() {
        int finished = 0;
        int released = 0;
        int gaveUp = 0;
        int lost = 0;
        for (long seed = 1; seed <= 200; seed++) {
            FlowDriver d = randomRun(seed);
            finished += d.record.state() == FenceState.FINAL ? 1 : 0;
            released += d.everIssued(ClusterAction.RELEASE_WORKLOADS) ? 1 : 0;
            gaveUp += d.record.gaveUp() ? 1 : 0;
            lost += (int) d.events(FenceEvent.OperationFinished.class).stream()
                    .filter(f -> f.detail().startsWith("no result")).count();
        }
        assertThat(finished).as("runs that reached FINAL").isPositive();
        assertThat(released).as("runs that released").isPositive();
        assertThat(gaveUp).as("runs that gave up").isPositive();
        assertThat(lost).as("operations counted as lost").isPositive();
    }

    private static FlowDriver randomRun(long seed) {
        Random random = new Random(seed);
        NodePlan plan = FlowDriver.plan(new StepPlan(STEP, 1, List.of(List.of(FABRIC))),
                new StepPlan(Duration.ofSeconds(90), 2, List.of(List.of(BMC), List.of(FlowDriver.PDU_A,
                        FlowDriver.PDU_B))), new StepPlan(STEP, 1, List.of(List.of(REJOIN))));
        FlowSettings settings = FlowDriver.settings().maxRestarts(3).build();
        FlowDriver d = FlowDriver.decided(settings, plan);
        FenceStatus[] statuses = {FenceStatus.SUCCEEDED, FenceStatus.SUCCEEDED, FenceStatus.SUCCEEDED,
            FenceStatus.SUCCEEDED, FenceStatus.FAILED, FenceStatus.TIMED_OUT};
        PowerState[] powers = {PowerState.OFF, PowerState.OFF, PowerState.ON, PowerState.UNKNOWN};
        d.probe = x -> {
            for (FenceEvent e : x.last.events()) {
                if (e instanceof FenceEvent.Transitioned t) {
                    assertThat(Transitions.isLegal(t.from().state(), t.to().state())).isTrue();
                }
                if (e instanceof FenceEvent.Confirmed c && c.confirmation().kind() == Confirmation.Kind.STATUS_READ_OFF) {
                    assertThat(x.last.events()).anySatisfy(f -> assertThat(f).isInstanceOfSatisfying(
                            FenceEvent.OperationFinished.class, o -> {
                                assertThat(o.description()).endsWith(" status");
                                assertThat(o.result()).isEqualTo(FenceStatus.SUCCEEDED);
                                assertThat(o.detail()).isEqualTo("SUCCEEDED/OFF");
                            }));
                }
            }
        };
        for (int i = 0; i < 400 && !d.record.isSettled(); i++) {
            Optional<Operation> op = d.record.inFlight();
            if (op.isPresent() && random.nextInt(12) > 0) {
                long maxMillis = op.get().budget().toMillis();
                d.after(Duration.ofMillis((long) (random.nextDouble() * maxMillis)));
                d.answer(statuses[random.nextInt(statuses.length)], powers[random.nextInt(powers.length)]);
            } else if (d.record.stage() == Stage.AWAIT_READY && random.nextInt(4) > 0) {
                d.after(Duration.ofSeconds(random.nextInt(600))).readiness(true, Optional.empty());
            } else if (d.flow.nextWake(d.record).isPresent()) {
                d.wake();
            } else {
                break;
            }
        }
        FlowSettings s = d.flow.settings();
        List<FlowDriver.Issued> agentOps = d.issued.stream().filter(i -> i.effect() instanceof Effect.RunAgent).toList();
        for (FlowDriver.Issued i : agentOps) {
            Effect.RunAgent a = (Effect.RunAgent) i.effect();
            Duration left = Duration.between(i.at(), i.stepDeadline());
            assertThat(a.budget()).as("seed %s: budget of %s at %s", seed, a, i.at())
                    .isGreaterThanOrEqualTo(s.minOperationBudget());
            if (i.stage() != Stage.POWER_ON && i.stage() != Stage.UNFENCE) {
                assertThat(a.budget()).as("seed %s: budget of %s in %s at %s", seed, a, i.stage(), i.at())
                        .isLessThanOrEqualTo(left);
            }
        }
        assertThat(d.now).isAfter(T0);
        return d;
    }
}
