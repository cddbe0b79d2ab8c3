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

/** Isolation methods act by their fencing kind: power and fabric run OFF then ON, soft runs REBOOT only. */
class FenceFlowFencingKindTest {

    private static final Duration HOLD = Duration.ofSeconds(30);
    private static final Duration ISOLATION_TIMEOUT = Duration.ofSeconds(30);

    private static NodePlan plan(List<List<ResolvedMethod>> isolation) {
        return FlowDriver.plan(new StepPlan(ISOLATION_TIMEOUT, 0, isolation),
                new StepPlan(Duration.ofSeconds(60), 0, List.of(List.of(BMC))), StepPlan.none(Duration.ofSeconds(60)));
    }

    /** Isolates with every isolation operation succeeding, then powers off, confirms, releases and powers on. */
    private static FlowDriver poweredOnAgain(FlowDriver d) {
        d.tickAt(FlowDriver.T0.plus(HOLD)).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        while (d.record.stage() == Stage.ISOLATE_AGENTS) {
            d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        }
        d.powerOffIssued().answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        return d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
    }

    private static List<String> isolationOperations(FlowDriver d) {
        return d.issuedDescriptions().stream().filter(o -> o.startsWith("isolation ")).toList();
    }

    @Test
    @DisplayName("a soft isolation method runs REBOOT, not OFF, and is not un-fenced: the flow waits for Ready at once")
    void softIsolationRebootsAndIsNotUnfenced() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(), plan(List.of(List.of(SYSRQ))));
        d.tickAt(FlowDriver.T0.plus(HOLD)).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_AGENTS);
        assertThat(d.agentEffect().step()).isEqualTo(FenceStep.ISOLATION);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.REBOOT);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.RACE_DELAY);
        assertThat(d.record.isolationLevel()).hasValue(0);
        assertThat(d.record.poweredOff()).as("a soft reboot is not a power-off by remedy").isFalse();

        d.wake().answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);

        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.reason()).contains("soft fencing only, with nothing to un-fence");
        assertThat(d.stagesVisited()).doesNotContain(Stage.UNFENCE);
        assertThat(d.agentEffects(FenceAction.OFF)).noneMatch(e -> e.step() == FenceStep.ISOLATION);
        assertThat(d.agentEffects(FenceAction.ON)).noneMatch(e -> e.step() == FenceStep.ISOLATION);
        d.readiness(true, Optional.empty()).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.issuedDescriptions()).containsExactly("cluster isolate", "isolation L1 sysrq reboot",
                "power_management L1 bmc off", "power_management L1 bmc status", "cluster release_workloads",
                "cluster lift_out_of_service", "power_management L1 bmc on", "cluster recover");
    }

    @Test
    @DisplayName("a level mixing kinds isolates with REBOOT for soft and OFF for fabric, and un-fences only the fabric")
    void mixedLevelUnfencesOnlyFabric() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(),
                plan(List.of(List.of(SYSRQ, FABRIC, NODE_AGENT, SAN))));

        poweredOnAgain(d);

        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        assertThat(d.agentEffect().method()).as("the soft method first in the level is skipped").isEqualTo(1);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        assertThat(d.agentEffect().method()).as("the soft method between the two fabrics is skipped").isEqualTo(3);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(isolationOperations(d)).containsExactly("isolation L1 sysrq reboot", "isolation L1 fabric off",
                "isolation L1 node-agent reboot", "isolation L1 san off", "isolation L1 fabric on",
                "isolation L1 san on");
    }

    @Test
    @DisplayName("a fabric method gets ON before the flow waits for Ready, and Ready meanwhile does not skip it")
    void fabricIsUnfencedBeforeAwaitReady() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(), plan(List.of(List.of(FABRIC))));

        poweredOnAgain(d);

        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        Effect.RunAgent unfence = d.agentEffect();
        assertThat(unfence.step()).isEqualTo(FenceStep.ISOLATION);
        assertThat(unfence.action()).isEqualTo(FenceAction.ON);
        d.readiness(true, Optional.of(d.now));
        assertThat(d.record.stage()).as("Ready while the fabric is still isolated changes nothing")
                .isEqualTo(Stage.UNFENCE);
        assertThat(d.record.inFlight().map(Operation::id)).contains(unfence.operationId());

        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        List<Stage> stages = d.stagesVisited();
        assertThat(stages.indexOf(Stage.UNFENCE)).isLessThan(stages.indexOf(Stage.AWAIT_READY));
    }

    @Test
    @DisplayName("a failing fabric ON is retried until the step deadline, then fails the step: never Ready, never recovered")
    void failedUnfenceIsNeverRecovered() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().maxRestarts(0).build(),
                plan(List.of(List.of(FABRIC))));
        poweredOnAgain(d);
        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);

        int tries = 1;
        while (d.record.stage() == Stage.UNFENCE) {
            d.answerAfter(Duration.ofSeconds(2), FenceStatus.FAILED, PowerState.UNKNOWN);
            if (d.record.stage() == Stage.UNFENCE) {
                assertThat(d.record.inFlight()).isEmpty();
                d.wake();
                if (d.record.inFlight().isPresent()) {
                    tries++;
                    assertThat(d.agentEffect()).satisfies(e -> {
                        assertThat(e.step()).isEqualTo(FenceStep.ISOLATION);
                        assertThat(e.action()).isEqualTo(FenceAction.ON);
                    });
                }
            }
        }

        assertThat(tries).as("ON was tried again after each failure").isGreaterThan(5);
        assertThat(d.record.state()).isEqualTo(FenceState.ERROR);
        assertThat(d.record.gaveUp()).isTrue();
        assertThat(d.stagesVisited()).doesNotContain(Stage.AWAIT_READY, Stage.RECOVER_AGENTS, Stage.RECOVER_CLUSTER,
                Stage.FINISHED);
        assertThat(d.everIssued(ClusterAction.RECOVER)).as("uncordoned").isFalse();
        assertThat(d.events(FenceEvent.Alert.class)).singleElement().satisfies(alert ->
                assertThat(alert.reason()).contains("may still be cut off by isolation level 1")
                        .contains("run ON on its methods by hand before it rejoins"));
    }

    @Test
    @DisplayName("after a failed un-fence with restarts left, the flow restarts from isolation, not from waiting for Ready")
    void failedUnfenceRestartsTheFlow() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(), plan(List.of(List.of(FABRIC))));
        poweredOnAgain(d);

        d.answer(FenceStatus.TIMED_OUT, PowerState.UNKNOWN);
        while (d.record.stage() == Stage.UNFENCE) {
            d.wake();
            if (d.record.inFlight().isPresent()) {
                d.answerAfter(Duration.ofSeconds(5), FenceStatus.TIMED_OUT, PowerState.UNKNOWN);
            }
        }
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.gaveUp()).isFalse();
        assertThat(d.events(FenceEvent.Alert.class)).isEmpty();

        d.wake();
        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_CLUSTER);
        assertThat(d.stagesVisited()).doesNotContain(Stage.AWAIT_READY, Stage.FINISHED);
    }

    @Test
    @DisplayName("a soft method that fails to reboot fails its level like any method, and the next level isolates")
    void failedSoftRebootFallsToTheNextLevel() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(),
                plan(List.of(List.of(SYSRQ), List.of(FABRIC))));
        d.tickAt(FlowDriver.T0.plus(HOLD)).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);

        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_AGENTS);
        assertThat(d.agentEffect().level()).isEqualTo(1);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.isolationLevel()).hasValue(1);
        d.powerOffIssued().answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);

        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        assertThat(d.agentEffect().level()).isEqualTo(1);
        assertThat(isolationOperations(d)).containsExactly("isolation L1 sysrq reboot", "isolation L2 fabric off",
                "isolation L2 fabric on");
    }

    @Test
    @DisplayName("a power method under isolation keeps OFF at isolation and ON at un-fence, as before kinds existed")
    void powerIsolationMethodUnchanged() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(),
                plan(List.of(List.of(FlowDriver.method("outlet")))));

        poweredOnAgain(d);

        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(isolationOperations(d)).containsExactly("isolation L1 outlet off", "isolation L1 outlet on");
    }
}
