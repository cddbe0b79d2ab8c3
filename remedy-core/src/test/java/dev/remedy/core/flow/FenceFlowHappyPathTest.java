package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static dev.remedy.core.flow.FlowDriver.FABRIC;
import static dev.remedy.core.flow.FlowDriver.NODE;
import static dev.remedy.core.flow.FlowDriver.REJOIN;
import static dev.remedy.core.flow.FlowDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** One failure from decision to FINAL, with every result a success. */
class FenceFlowHappyPathTest {

    private static final Duration HOLD = Duration.ofSeconds(30);
    private static final Duration RACE = Duration.ofSeconds(5);

    private static NodePlan planWithRecovery() {
        return FlowDriver.plan(StepPlan.none(Duration.ofSeconds(60)),
                new StepPlan(Duration.ofSeconds(60), 2, List.of(List.of(BMC))),
                new StepPlan(Duration.ofSeconds(60), 0, List.of(List.of(REJOIN))));
    }

    @Test
    @DisplayName("decide holds; a tick before the hold ends issues nothing and leaves the record unchanged")
    void holdIssuesNothing() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(), planWithRecovery());
        assertThat(d.record.stage()).isEqualTo(Stage.HOLD);
        assertThat(d.record.state()).isEqualTo(FenceState.NEW);
        assertThat(d.record.waitUntil()).contains(T0.plus(HOLD));
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.last.events()).singleElement().isInstanceOfSatisfying(FenceEvent.Transitioned.class,
                t -> assertThat(t.reason()).contains("NotReady for 5m"));
        NodeFence held = d.record;

        d.tickAt(HOLD.minusMillis(1));
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.last.events()).isEmpty();
        assertThat(d.record).isEqualTo(held);

        d.tickAt(HOLD);
        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_CLUSTER);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.ISOLATE);
    }

    @Test
    @DisplayName("a whole successful flow: hold with its race delay, isolate, off, confirm, release, lift, on, Ready,"
            + " recover, FINAL")
    void wholeFlow() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(), planWithRecovery(), RACE);

        assertThat(d.record.waitUntil()).as("the fence-race delay lengthens the hold").contains(T0.plus(HOLD).plus(RACE));
        d.tickAt(HOLD.plus(RACE).minusMillis(1));
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.record.stage()).isEqualTo(Stage.HOLD);

        d.tickAt(HOLD.plus(RACE));
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.ISOLATE);
        assertThat(d.record.state()).isEqualTo(FenceState.NEW);
        assertThat(d.record.stepDeadline()).isEqualTo(T0.plus(HOLD).plus(RACE).plusSeconds(60));

        d.answerAfter(Duration.ofMillis(200), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).as("no soft fencing, no grace: power fencing at once").isEqualTo(Stage.POWER_OFF);
        assertThat(d.record.state()).isEqualTo(FenceState.RUNNING);
        assertThat(d.record.isolationLevel()).isEmpty();
        Effect.RunAgent off = d.agentEffect();
        assertThat(off.action()).isEqualTo(FenceAction.OFF);
        assertThat(off.step()).isEqualTo(FenceStep.POWER_MANAGEMENT);
        assertThat(off.level()).isZero();
        assertThat(off.method()).isZero();
        assertThat(d.record.poweredOff()).as("an OFF was issued: the node may be off from now on").isTrue();

        d.answerAfter(Duration.ofSeconds(2), FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.CONFIRM_OFF);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.STATUS);
        assertThat(d.record.confirmation()).isEmpty();

        d.answerAfter(Duration.ofMillis(100), FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RELEASE_WORKLOADS);
        assertThat(d.record.confirmation()).hasValueSatisfying(c -> {
            assertThat(c.kind()).isEqualTo(Confirmation.Kind.STATUS_READ_OFF);
            assertThat(c.source()).isEqualTo("bmc");
            assertThat(c.at()).isEqualTo(d.now);
        });
        assertThat(d.lastEvents(FenceEvent.Confirmed.class)).singleElement()
                .satisfies(c -> assertThat(c.confirmation()).isEqualTo(d.record.confirmation().get()));
        assertThat(d.record.poweredOff()).isTrue();
        assertThat(d.record.powerLevel()).hasValue(0);

        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.LIFT_OUT_OF_SERVICE);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.LIFT_OUT_OF_SERVICE);
        assertThat(d.record.released()).isTrue();
        assertThat(d.record.poweredOff()).isTrue();

        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        Effect.RunAgent on = d.agentEffect();
        assertThat(on.action()).isEqualTo(FenceAction.ON);
        assertThat(on.level()).isZero();
        assertThat(d.record.poweredOff()).isTrue();

        d.answerAfter(Duration.ofSeconds(3), FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.state()).isEqualTo(FenceState.DONE);
        assertThat(d.record.poweredOff()).isFalse();
        assertThat(d.last.effects()).isEmpty();

        d.after(Duration.ofMinutes(2)).readiness(false, Optional.empty());
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.last.effects()).isEmpty();

        d.after(Duration.ofMinutes(1)).readiness(true, Optional.of(d.now.minusSeconds(40)));
        assertThat(d.record.stage()).isEqualTo(Stage.RECOVER_AGENTS);
        Effect.RunAgent rejoin = d.agentEffect();
        assertThat(rejoin.step()).isEqualTo(FenceStep.RECOVERY);
        assertThat(rejoin.action()).isEqualTo(FenceAction.ON);

        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.RECOVER_CLUSTER);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RECOVER);

        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.FINISHED);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.record.isSettled()).isTrue();
        assertThat(d.record.inFlight()).isEmpty();
        assertThat(d.last.effects()).isEmpty();

        assertThat(d.stagesVisited()).containsExactly(Stage.HOLD, Stage.ISOLATE_CLUSTER, Stage.ISOLATE_AGENTS,
                Stage.RACE_DELAY, Stage.POWER_OFF, Stage.CONFIRM_OFF, Stage.RELEASE, Stage.LIFT_OUT_OF_SERVICE,
                Stage.POWER_ON, Stage.AWAIT_READY, Stage.RECOVER_AGENTS, Stage.RECOVER_CLUSTER, Stage.FINISHED);
        List<FenceEvent.Transitioned> moves = d.events(FenceEvent.Transitioned.class);
        for (int i = 1; i < moves.size(); i++) {
            assertThat(moves.get(i).from()).as("transition %s starts where the previous ended", i)
                    .isEqualTo(moves.get(i - 1).to());
            assertThat(moves.get(i).node()).isEqualTo(NODE);
        }
        List<String> operations = List.of("cluster isolate", "power_management L1 bmc off",
                "power_management L1 bmc status", "cluster release_workloads", "cluster lift_out_of_service",
                "power_management L1 bmc on", "recovery L1 rejoin on", "cluster recover");
        assertThat(d.issuedDescriptions()).containsExactlyElementsOf(operations);
        assertThat(d.events(FenceEvent.OperationFinished.class)).extracting(FenceEvent.OperationFinished::description)
                .containsExactlyElementsOf(operations);
        // The agent type of each method ("fake" in these plans), "cluster" for cluster actions: metrics tag by it.
        assertThat(d.events(FenceEvent.OperationFinished.class)).extracting(FenceEvent.OperationFinished::agentType)
                .containsExactly("cluster", "fake", "fake", "cluster", "cluster", "fake", "fake", "cluster");
        assertThat(d.events(FenceEvent.OperationFinished.class)).extracting(FenceEvent.OperationFinished::result)
                .containsOnly(FenceStatus.SUCCEEDED);
        assertThat(d.record.attempts()).extracting(Attempt::operation).containsExactlyElementsOf(operations);
        assertThat(d.record.attempts()).extracting(Attempt::result).containsOnly(FenceStatus.SUCCEEDED);
        assertThat(d.events(FenceEvent.Confirmed.class)).hasSize(1);
        assertThat(d.events(FenceEvent.Alert.class)).isEmpty();
        assertThat(d.events(FenceEvent.Refused.class)).isEmpty();
        assertThat(d.effects).extracting(Effect::operationId).doesNotHaveDuplicates().hasSize(8);
        assertThat(d.record.sequence()).isEqualTo(8);
    }

    @Test
    @DisplayName("poweredOff is true exactly from the first OFF issued until the ON succeeded")
    void poweredOffWindow() {
        FlowDriver d = FlowDriver.running(FlowDriver.settings().build(), planWithRecovery());
        assertThat(d.record.poweredOff()).isFalse();
        d.probe = x -> {
            Stage s = x.record.stage();
            boolean between = s == Stage.POWER_OFF || s == Stage.CONFIRM_OFF || s == Stage.RELEASE
                    || s == Stage.LIFT_OUT_OF_SERVICE || s == Stage.POWER_ON;
            assertThat(x.record.poweredOff()).as("poweredOff in %s", s).isEqualTo(between);
        };
        d.wake();
        assertThat(d.record.poweredOff()).isTrue();
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.poweredOff()).isTrue();
        while (d.record.stage() != Stage.AWAIT_READY) {
            d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.ON);
        }
        d.readiness(true, Optional.empty());
        while (d.record.state() != FenceState.FINAL) {
            d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.ON);
        }
        assertThat(d.record.poweredOff()).isFalse();
    }

    @Test
    @DisplayName("with isolation levels: the fabric is isolated before power management and un-fenced before Ready")
    void isolationAndUnfence() {
        NodePlan plan = FlowDriver.plan(new StepPlan(Duration.ofSeconds(60), 0, List.of(List.of(FABRIC))),
                new StepPlan(Duration.ofSeconds(60), 2, List.of(List.of(BMC))), StepPlan.none(Duration.ofSeconds(60)));
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(), plan);
        d.tickAt(HOLD).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_AGENTS);
        Effect.RunAgent isolate = d.agentEffect();
        assertThat(isolate.step()).isEqualTo(FenceStep.ISOLATION);
        assertThat(isolate.action()).isEqualTo(FenceAction.OFF);

        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.record.isolationLevel()).hasValue(0);

        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        assertThat(d.record.state()).isEqualTo(FenceState.DONE);
        Effect.RunAgent unfence = d.agentEffect();
        assertThat(unfence.step()).isEqualTo(FenceStep.ISOLATION);
        assertThat(unfence.action()).isEqualTo(FenceAction.ON);
        assertThat(unfence.level()).isZero();

        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        d.readiness(true, Optional.empty());
        assertThat(d.record.stage()).isEqualTo(Stage.RECOVER_CLUSTER);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.issuedDescriptions()).containsExactly("cluster isolate", "isolation L1 fabric off",
                "power_management L1 bmc off", "power_management L1 bmc status", "cluster release_workloads",
                "cluster lift_out_of_service", "power_management L1 bmc on", "isolation L1 fabric on",
                "cluster recover");
    }

    @Test
    @DisplayName("the attempt log keeps only the configured number of finished operations, newest last")
    void attemptLogBounded() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().attemptLog(2).build(), planWithRecovery());
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.attempts()).extracting(Attempt::operation)
                .containsExactly("power_management L1 bmc off", "power_management L1 bmc status");
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.attempts()).extracting(Attempt::operation)
                .containsExactly("power_management L1 bmc status", "cluster release_workloads");
    }
}
