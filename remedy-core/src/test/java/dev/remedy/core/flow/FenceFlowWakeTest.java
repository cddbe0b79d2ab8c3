package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static dev.remedy.core.flow.FlowDriver.REJOIN;
import static dev.remedy.core.flow.FlowDriver.T0;
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
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** nextWake, operations counted as lost, Recovered, and the flow being a pure function. */
class FenceFlowWakeTest {

    private static final Duration STEP = Duration.ofSeconds(60);

    private static NodePlan plan() {
        return FlowDriver.plan(StepPlan.none(STEP), new StepPlan(STEP, 2, List.of(List.of(BMC))),
                new StepPlan(STEP, 0, List.of(List.of(REJOIN))));
    }

    // ---- nextWake ----

    @Test
    @DisplayName("nextWake is the hold's end, then issuedAt + budget + grace while an operation is in flight")
    void wakeForHoldAndInFlight() {
        FlowSettings settings = FlowDriver.settings().build();
        FlowDriver d = FlowDriver.decided(settings, plan());
        assertThat(d.flow.nextWake(d.record)).contains(T0.plus(settings.hold()));
        d.wake();
        Operation isolate = d.inFlight();
        assertThat(d.flow.nextWake(d.record)).contains(isolate.issuedAt().plus(settings.clusterBudget())
                .plus(settings.operationGrace()));
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        Operation off = d.inFlight();
        assertThat(off).isInstanceOfSatisfying(Operation.Agent.class,
                agent -> assertThat(agent.action()).isEqualTo(FenceAction.OFF));
        assertThat(d.flow.nextWake(d.record)).contains(off.issuedAt().plus(off.budget()).plus(settings.operationGrace()));
    }

    @Test
    @DisplayName("nextWake is the grace's end in RACE_DELAY, the backoff or the earlier step deadline while polling, "
            + "the restart delay in ERROR and stageSince + awaitReady in AWAIT_READY")
    void wakeForWaits() {
        FlowSettings settings = FlowDriver.settings().build();
        FlowDriver d = FlowDriver.running(settings, plan());
        assertThat(d.flow.nextWake(d.record)).contains(d.now.plus(settings.softFenceGrace()));

        d.wake().answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.flow.nextWake(d.record)).contains(d.now.plus(settings.backoffInitial()));
        Instant deadline = d.record.stepDeadline();
        d.wake().at(deadline.minusSeconds(3)).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.waitUntil().orElseThrow()).isAfter(deadline);
        assertThat(d.flow.nextWake(d.record)).contains(deadline);

        d.wake();
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.flow.nextWake(d.record)).contains(d.now.plus(settings.restartDelay()));

        FlowDriver done = FlowDriver.poweringOff(settings, plan());
        done.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF)
                .answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN)
                .answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(done.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(done.flow.nextWake(done.record)).contains(done.record.stageSince().plus(settings.awaitReady()));
    }

    @Test
    @DisplayName("nextWake is empty when the flow is FINAL, gave up, or paused")
    void wakeEmpty() {
        FlowDriver finished = FlowDriver.decided().readiness(true, Optional.empty());
        assertThat(finished.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(finished.flow.nextWake(finished.record)).isEmpty();

        FlowDriver paused = FlowDriver.poweringOff(FlowDriver.settings().build(), plan()).admin(AdminCommand.PAUSE);
        assertThat(paused.record.inFlight()).isPresent();
        assertThat(paused.flow.nextWake(paused.record)).isEmpty();

        FlowDriver gaveUp = FlowDriver.poweringOff(FlowDriver.settings().maxRestarts(0).build(), plan());
        gaveUp.answer(FenceStatus.TIMED_OUT, PowerState.UNKNOWN);
        assertThat(gaveUp.record.gaveUp()).isTrue();
        assertThat(gaveUp.flow.nextWake(gaveUp.record)).isEmpty();
    }

    @Test
    @DisplayName("over a whole flow with waits, polls, a retry and a restart, a Tick 1 ms before nextWake never changes "
            + "the record, and a Tick at nextWake always does")
    void tickBeforeWakeChangesNothing() {
        FlowSettings settings = FlowDriver.settings().build();
        FlowDriver d = FlowDriver.decided(settings, plan());
        int[] checked = {0};
        d.probe = x -> {
            Optional<Instant> wake = x.flow.nextWake(x.record);
            if (wake.isEmpty()) {
                return;
            }
            assertThat(wake.get()).as("wake of %s", x.record.stage()).isAfter(x.now);
            Transition early = x.flow.apply(x.record, x.plan, new Observation.Tick(), wake.get().minusMillis(1));
            assertThat(early.record()).as("tick before the wake in %s", x.record.stage()).isEqualTo(x.record);
            assertThat(early.effects()).isEmpty();
            assertThat(early.events()).isEmpty();
            Transition due = x.flow.apply(x.record, x.plan, new Observation.Tick(), wake.get());
            assertThat(due.record()).as("tick at the wake in %s", x.record.stage()).isNotEqualTo(x.record);
            checked[0]++;
        };
        d.probe.accept(d);
        d.wake();
        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answerAfter(Duration.ofSeconds(2), FenceStatus.FAILED, PowerState.UNKNOWN);
        d.wake();
        d.answerAfter(Duration.ofSeconds(2), FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answerAfter(Duration.ofMillis(300), FenceStatus.SUCCEEDED, PowerState.ON);
        d.wake().answerAfter(Duration.ofMillis(300), FenceStatus.FAILED, PowerState.UNKNOWN);
        d.wake().answerAfter(Duration.ofMillis(300), FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        d.answerAfter(Duration.ofSeconds(1), FenceStatus.FAILED, PowerState.UNKNOWN);
        d.wake().answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        d.answerAfter(Duration.ofSeconds(3), FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        d.wake();
        assertThat(d.record.stage()).as("not Ready in time").isEqualTo(Stage.FAILED);
        d.wake();
        assertThat(d.record.restarts()).isEqualTo(1);
        while (d.record.stage() != Stage.AWAIT_READY) {
            if (d.record.inFlight().isPresent()) {
                d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.ON);
            } else {
                d.wake();
            }
        }
        d.after(Duration.ofMinutes(1)).readiness(true, Optional.empty());
        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.ON);
        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(checked[0]).isGreaterThan(20);
    }

    // ---- lost operations ----

    @Test
    @DisplayName("an operation without result by issuedAt + budget + grace counts as TIMED_OUT, not a moment earlier")
    void lostOperationTimesOut() {
        FlowSettings settings = FlowDriver.settings().build();
        NodePlan twoLevels = FlowDriver.plan(StepPlan.none(STEP), new StepPlan(Duration.ofSeconds(300), 2,
                List.of(List.of(BMC), List.of(FlowDriver.PDU_A))), StepPlan.none(STEP));
        FlowDriver d = FlowDriver.poweringOff(settings, twoLevels);
        Operation off = d.inFlight();
        Instant lostAt = off.issuedAt().plus(off.budget()).plus(settings.operationGrace());
        NodeFence waiting = d.record;

        d.tickAt(lostAt.minusMillis(1));
        assertThat(d.record).isEqualTo(waiting);
        d.tickAt(lostAt);
        assertThat(d.lastEvents(FenceEvent.OperationFinished.class)).singleElement().satisfies(f -> {
            assertThat(f.operationId()).isEqualTo(off.id());
            assertThat(f.result()).isEqualTo(FenceStatus.TIMED_OUT);
        });
        assertThat(d.record.attempts()).last().satisfies(a -> assertThat(a.result()).isEqualTo(FenceStatus.TIMED_OUT));
        assertThat(d.record.confirmation()).isEmpty();
        assertThat(d.agentEffect().action()).as("a lost OFF moves on to the next level").isEqualTo(FenceAction.OFF);
        assertThat(d.agentEffect().level()).isEqualTo(1);

        Instant late = d.now.plusMillis(5);
        d.at(late).apply(new Observation.Completed(off.id(), FenceStatus.SUCCEEDED, PowerState.OFF, "too late"));
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.last.events()).as("the late result of a lost operation is ignored").isEmpty();
    }

    @Test
    @DisplayName("a lost cluster action is counted TIMED_OUT and issued again after a backoff with a new id")
    void lostClusterActionRetried() {
        FlowSettings settings = FlowDriver.settings().build();
        FlowDriver d = FlowDriver.poweringOff(settings, plan());
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        Operation release = d.inFlight();
        assertThat(release).isInstanceOfSatisfying(Operation.Cluster.class,
                cluster -> assertThat(cluster.action()).isEqualTo(ClusterAction.RELEASE_WORKLOADS));
        d.wake();
        assertThat(d.now).isEqualTo(release.issuedAt().plus(settings.clusterBudget()).plus(settings.operationGrace()));
        assertThat(d.record.attempts()).last().satisfies(a -> assertThat(a.result()).isEqualTo(FenceStatus.TIMED_OUT));
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        assertThat(d.record.released()).isFalse();
        assertThat(d.last.effects()).isEmpty();
        d.wake();
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RELEASE_WORKLOADS);
        assertThat(d.clusterEffect().operationId()).isNotEqualTo(release.id());
    }

    // ---- Recovered ----

    @Test
    @DisplayName("Recovered re-issues exactly the operation in flight (same id, action, budget) and changes nothing")
    void recoveredReissues() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), plan());
        Effect original = d.effect();
        NodeFence before = d.record;
        d.after(Duration.ofSeconds(7)).apply(new Observation.Recovered());
        assertThat(d.last.effects()).containsExactly(original);
        assertThat(d.record).isEqualTo(before);
        assertThat(d.last.events()).isEmpty();

        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        Effect release = d.effect();
        assertThat(release).isInstanceOf(Effect.RunCluster.class);
        d.apply(new Observation.Recovered());
        assertThat(d.last.effects()).containsExactly(release);
    }

    @Test
    @DisplayName("Recovered with nothing in flight issues nothing, in a wait and in a settled flow")
    void recoveredWithNothingInFlight() {
        FlowDriver d = FlowDriver.running(FlowDriver.settings().build(), plan());
        NodeFence waiting = d.record;
        d.apply(new Observation.Recovered());
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.record).isEqualTo(waiting);

        FlowDriver finished = FlowDriver.decided().readiness(true, Optional.empty());
        finished.after(Duration.ofMinutes(3)).apply(new Observation.Recovered());
        assertThat(finished.last.effects()).isEmpty();
        assertThat(finished.last.events()).isEmpty();
    }

    // ---- purity ----

    @Test
    @DisplayName("apply is a pure function: the same record, observation and time give an equal transition, from any "
            + "FenceFlow with the same settings, and decide keeps no memory of earlier flows")
    void pure() {
        FlowSettings settings = FlowDriver.settings().build();
        FlowDriver d = FlowDriver.poweringOff(settings, plan());
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        Observation status = new Observation.Completed(d.inFlight().id(), FenceStatus.SUCCEEDED, PowerState.OFF, "x");
        Transition a = d.flow.apply(d.record, d.plan, status, d.now);
        Transition b = new FenceFlow(settings).apply(d.record, d.plan, status, d.now);
        assertThat(a).isEqualTo(b);
        assertThat(d.flow.apply(d.record, d.plan, status, d.now)).isEqualTo(a);

        assertThat(d.flow.decide("n1", T0, "NotReady for 5m")).isEqualTo(
                new FenceFlow(settings).decide("n1", T0, "NotReady for 5m"));
    }
}
