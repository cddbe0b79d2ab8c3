package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static dev.remedy.core.flow.FlowDriver.FABRIC;
import static dev.remedy.core.flow.FlowDriver.REJOIN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.FenceStep;
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

/** Levels (AND within, OR across), step retries (Pacemaker rules), whole-flow restarts and giving up. */
class FenceFlowLevelsTest {

    private static final Duration STEP = Duration.ofSeconds(60);

    private static NodePlan oneBmc(int retries) {
        return FlowDriver.plan(StepPlan.none(STEP), new StepPlan(STEP, retries, List.of(List.of(BMC))),
                StepPlan.none(STEP));
    }

    /** From wherever the flow is, runs to the next OFF of level 1 and answers it {@code status}. */
    private static void failNextOff(FlowDriver d, FenceStatus status) {
        int guard = 0;
        while (!(d.record.stage() == Stage.POWER_OFF && d.record.inFlight().isPresent())) {
            assertThat(guard++).as("reached POWER_OFF").isLessThan(20);
            if (d.record.inFlight().isPresent()) {
                d.answerAfter(Duration.ofMillis(100), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
            } else {
                d.wake();
            }
        }
        d.answerAfter(Duration.ofMillis(500), status, PowerState.UNKNOWN);
    }

    @Test
    @DisplayName("level 1 failing moves to level 2, whose two methods must both be OFF and read OFF before a "
            + "confirmation naming both; power on then goes to both methods of that level only")
    void orAcrossAndWithin() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), FlowDriver.defaultPlan());
        d.answerAfter(Duration.ofSeconds(1), FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        Effect.RunAgent pduAOff = d.agentEffect();
        assertThat(pduAOff.action()).isEqualTo(FenceAction.OFF);
        assertThat(pduAOff.level()).isEqualTo(1);
        assertThat(pduAOff.method()).isZero();

        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.STATUS);
        assertThat(d.agentEffect().method()).isZero();
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.confirmation()).as("one of two methods read OFF").isEmpty();
        assertThat(d.record.levelConfirmed()).containsExactly("pdu-a");
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        assertThat(d.agentEffect().method()).isEqualTo(1);

        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.confirmation()).isEmpty();
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.STATUS);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.confirmation()).hasValueSatisfying(c -> {
            assertThat(c.kind()).isEqualTo(Confirmation.Kind.STATUS_READ_OFF);
            assertThat(c.source()).contains("pdu-a").contains("pdu-b").doesNotContain("bmc");
        });
        assertThat(d.record.powerLevel()).hasValue(1);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RELEASE_WORKLOADS);

        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.agentEffects(FenceAction.ON)).extracting(Effect.RunAgent::level, Effect.RunAgent::method)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, 0), org.assertj.core.groups.Tuple.tuple(1, 1));
        assertThat(d.issuedDescriptions()).filteredOn(s -> s.contains(" bmc ")).containsExactly(
                "power_management L1 bmc off");
    }

    @Test
    @DisplayName("a STATUS that keeps reading ON past the level's share of the budget moves on to the next level")
    void statusShareMovesToNextLevel() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), FlowDriver.defaultPlan());
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        Instant confirmStart = d.now;
        Duration share = Duration.between(confirmStart, d.record.stepDeadline()).dividedBy(2);
        while (d.record.stage() == Stage.CONFIRM_OFF) {
            d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
            if (d.record.stage() == Stage.CONFIRM_OFF) {
                assertThat(Duration.between(confirmStart, d.now)).isLessThan(share);
                d.wake();
            }
        }
        assertThat(Duration.between(confirmStart, d.now)).isGreaterThanOrEqualTo(share);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().level()).isEqualTo(1);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        assertThat(d.record.confirmation()).isEmpty();
        assertThat(d.lastEvents(FenceEvent.Transitioned.class)).extracting(FenceEvent.Transitioned::from)
                .containsExactly(Stage.CONFIRM_OFF);
    }

    @Test
    @DisplayName("when every level fails the step is retried after a backoff, from level 1, while retries remain")
    void allLevelsFailRetries() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), FlowDriver.defaultPlan());
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.levelConfirmed()).containsExactly("pdu-a");
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.record.retries()).isEqualTo(1);
        assertThat(d.record.levelConfirmed()).isEmpty();
        assertThat(d.record.confirmation()).isEmpty();
        assertThat(d.last.effects()).as("a backoff before the retry").isEmpty();
        assertThat(d.record.waitUntil()).contains(d.now.plusSeconds(1));
        assertThat(d.record.reason()).contains("retry 1 of 2");

        d.tickAfter(Duration.ofMillis(999));
        assertThat(d.last.effects()).isEmpty();
        d.tickAfter(Duration.ofMillis(1));
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        assertThat(d.agentEffect().level()).isZero();
        assertThat(d.agentEffect().method()).isZero();
    }

    @Test
    @DisplayName("a failed step with less than 30% of its budget left is not retried")
    void notRetriedWithLittleBudget() {
        FlowDriver early = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc(2));
        Instant deadline = early.record.stepDeadline();
        early.at(deadline.minusSeconds(18)).answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(early.record.stage()).as("18 s of 60 s left is enough").isEqualTo(Stage.POWER_OFF);
        assertThat(early.record.retries()).isEqualTo(1);

        FlowDriver late = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc(2));
        late.at(deadline.minusMillis(17_999)).answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(late.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(late.record.retries()).isZero();
        assertThat(late.record.reason()).contains("too little budget");
    }

    @Test
    @DisplayName("an attempt that timed out is not retried, even with retries and budget left (Pacemaker rule)")
    void timedOutNotRetried() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), FlowDriver.defaultPlan());
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        d.answerAfter(Duration.ofSeconds(2), FenceStatus.TIMED_OUT, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.retries()).isZero();
        assertThat(d.record.gaveUp()).isFalse();
        assertThat(d.record.reason()).contains("timed out");
        assertThat(d.last.effects()).isEmpty();
    }

    @Test
    @DisplayName("retries exhausted: ERROR, then after the restart delay NEW again with one more restart and fresh retries")
    void retriesExhaustedRestarts() {
        FlowSettings settings = FlowDriver.settings().build();
        FlowDriver d = FlowDriver.poweringOff(settings, oneBmc(2));
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        failNextOff(d, FenceStatus.FAILED);
        failNextOff(d, FenceStatus.FAILED);

        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.state()).isEqualTo(FenceState.ERROR);
        assertThat(d.record.retries()).isEqualTo(2);
        assertThat(d.record.restarts()).isZero();
        assertThat(d.record.gaveUp()).isFalse();
        assertThat(d.record.isSettled()).isFalse();
        assertThat(d.events(FenceEvent.Alert.class)).isEmpty();
        Instant failedAt = d.now;
        assertThat(d.record.waitUntil()).contains(failedAt.plus(settings.restartDelay()));
        assertThat(d.agentEffects(FenceAction.OFF)).hasSize(3);

        d.tickAt(failedAt.plus(settings.restartDelay()).minusMillis(1));
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        d.tickAt(failedAt.plus(settings.restartDelay()));
        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_CLUSTER);
        assertThat(d.record.state()).isEqualTo(FenceState.NEW);
        assertThat(d.record.restarts()).isEqualTo(1);
        assertThat(d.record.retries()).isZero();
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.ISOLATE);
        assertThat(d.lastEvents(FenceEvent.Transitioned.class)).singleElement().satisfies(t -> {
            assertThat(t.from()).isEqualTo(Stage.FAILED);
            assertThat(t.to()).isEqualTo(Stage.ISOLATE_CLUSTER);
        });
    }

    @Test
    @DisplayName("restarts exhausted: gave up with an Alert; nothing but an admin changes it; CLEAR_ERROR closes it")
    void restartsExhaustedGivesUp() {
        FlowSettings settings = FlowDriver.settings().maxRestarts(2).build();
        FlowDriver d = FlowDriver.poweringOff(settings, oneBmc(0));
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.gaveUp()).isFalse();
        failNextOff(d, FenceStatus.FAILED);
        assertThat(d.record.restarts()).isEqualTo(1);
        assertThat(d.record.gaveUp()).isFalse();
        failNextOff(d, FenceStatus.FAILED);
        assertThat(d.record.restarts()).isEqualTo(2);

        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.gaveUp()).isTrue();
        assertThat(d.record.isSettled()).isTrue();
        assertThat(d.record.waitUntil()).isEmpty();
        assertThat(d.events(FenceEvent.Alert.class)).singleElement()
                .satisfies(a -> assertThat(a.reason()).contains("gave up").contains("n1"));
        assertThat(d.flow.nextWake(d.record)).isEmpty();

        NodeFence gaveUp = d.record;
        d.tickAfter(Duration.ofHours(1));
        d.readiness(true, Optional.of(d.now));
        d.apply(new Observation.Completed("n1#" + gaveUp.sequence(), FenceStatus.SUCCEEDED, PowerState.OFF, "late"));
        d.apply(new Observation.Recovered());
        for (Transition t : d.transitions.subList(d.transitions.size() - 4, d.transitions.size())) {
            assertThat(t.record()).isEqualTo(gaveUp);
            assertThat(t.effects()).isEmpty();
            assertThat(t.events()).isEmpty();
        }

        d.admin(Observation.AdminCommand.CONFIRM_OFF);
        assertThat(d.record).isEqualTo(gaveUp);
        assertThat(d.lastEvents(FenceEvent.Refused.class)).hasSize(1);

        d.admin(Observation.AdminCommand.CLEAR_ERROR);
        assertThat(d.record.stage()).isEqualTo(Stage.FINISHED);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.lastEvents(FenceEvent.Transitioned.class)).singleElement()
                .satisfies(t -> assertThat(t.reason()).contains("alice"));
    }

    @Test
    @DisplayName("giving up while the node is powered off by remedy says so in the Alert")
    void gaveUpWhilePoweredOff() {
        FlowSettings settings = FlowDriver.settings().maxRestarts(0).build();
        FlowDriver d = FlowDriver.poweringOff(settings, oneBmc(0));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        int guard = 0;
        while (d.record.stage() == Stage.POWER_ON) {
            assertThat(guard++).isLessThan(200);
            if (d.record.inFlight().isPresent()) {
                d.answerAfter(Duration.ofSeconds(1), FenceStatus.FAILED, PowerState.UNKNOWN);
            } else {
                d.wake();
            }
        }
        assertThat(d.record.gaveUp()).isTrue();
        assertThat(d.record.poweredOff()).isTrue();
        assertThat(d.events(FenceEvent.Alert.class)).singleElement()
                .satisfies(a -> assertThat(a.reason()).contains("powered off"));
    }

    @Test
    @DisplayName("recovery levels are OR'ed too: the first failing moves to the second, then the cluster is recovered")
    void recoveryLevels() {
        NodePlan plan = FlowDriver.plan(StepPlan.none(STEP), new StepPlan(STEP, 0, List.of(List.of(BMC))),
                new StepPlan(STEP, 0, List.of(List.of(REJOIN), List.of(FABRIC))));
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), plan);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON).readiness(true, Optional.empty());
        assertThat(d.agentEffect().step()).isEqualTo(FenceStep.RECOVERY);
        assertThat(d.agentEffect().level()).isZero();
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.RECOVER_AGENTS);
        assertThat(d.agentEffect().level()).isEqualTo(1);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RECOVER);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
    }

    @Test
    @DisplayName("no power management level: the flow cannot confirm and fails instead of releasing")
    void noPowerLevels() {
        NodePlan plan = FlowDriver.plan(StepPlan.none(STEP), StepPlan.none(STEP), StepPlan.none(STEP));
        FlowDriver d = FlowDriver.running(FlowDriver.settings().build(), plan);
        d.wake();
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.reason()).contains("confirm");
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
    }
}
