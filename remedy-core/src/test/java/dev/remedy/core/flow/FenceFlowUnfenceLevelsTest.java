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
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Un-fencing undoes every isolation that may have been applied, not only the level that succeeded: a fabric method
 * of an earlier level may have turned the node's port OFF before another method of its level failed (Pacemaker
 * un-fences every fabric device before the node rejoins).
 */
class FenceFlowUnfenceLevelsTest {

    private static final Duration ISOLATION_TIMEOUT = Duration.ofSeconds(30);
    private static final ResolvedMethod SWITCH_B = FlowDriver.method("switch-b", FencingKind.FABRIC);
    private static final ResolvedMethod OUTLET = FlowDriver.method("outlet");

    private static NodePlan plan(int isolationRetries, List<List<ResolvedMethod>> isolation) {
        return FlowDriver.plan(new StepPlan(ISOLATION_TIMEOUT, isolationRetries, isolation),
                new StepPlan(Duration.ofSeconds(60), 0, List.of(List.of(BMC))), StepPlan.none(Duration.ofSeconds(60)));
    }


    /**
     * Answers the isolation operations in turn: true = SUCCEEDED, false = FAILED; ends in power management: waiting
     * the soft-fence grace in RACE_DELAY after a soft level succeeded, otherwise with OFF in flight to the bmc.
     */
    private static FlowDriver isolate(FlowDriver d, boolean... results) {
        for (boolean ok : results) {
            assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_AGENTS);
            d.answer(ok ? FenceStatus.SUCCEEDED : FenceStatus.FAILED, ok ? PowerState.OFF : PowerState.UNKNOWN);
        }
        FlowDriver.assertPowerFencingBegun(d);
        return d;
    }

    /** From the start of power fencing: powers off, confirms, releases, lifts the taint and powers on again. */
    private static FlowDriver powerFenceAndPowerOn(FlowDriver d) {
        FlowDriver.assertPowerFencingBegun(d);
        if (d.record.stage() == Stage.RACE_DELAY) {
            d.wake();
        }
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_ON);
        return d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
    }

    /** Answers every un-fence operation with success; returns the flow in AWAIT_READY. */
    private static FlowDriver unfenceAll(FlowDriver d) {
        int guard = 0;
        while (d.record.stage() == Stage.UNFENCE) {
            assertThat(guard++).isLessThan(20);
            Effect.RunAgent on = d.agentEffect();
            assertThat(on.step()).isEqualTo(FenceStep.ISOLATION);
            assertThat(on.action()).isEqualTo(FenceAction.ON);
            d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        }
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        return d;
    }

    private static List<String> unfenceOperations(FlowDriver d) {
        return d.issuedDescriptions().stream().filter(o -> o.startsWith("isolation ") && o.endsWith(" on")).toList();
    }

    @Test
    @DisplayName("a fabric method OFF in a level that then failed is un-fenced too, before the level that succeeded")
    void fabricOfFailedEarlierLevelIsUnfenced() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(FABRIC, SAN), List.of(SWITCH_B))));
        isolate(d, true, false, true);
        assertThat(d.record.isolationLevel()).hasValue(1);

        powerFenceAndPowerOn(d);
        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        assertThat(d.agentEffect().level()).as("un-fencing starts at level 1").isZero();
        assertThat(d.agentEffect().method()).isZero();
        unfenceAll(d);

        assertThat(unfenceOperations(d)).containsExactly("isolation L1 fabric on", "isolation L1 san on",
                "isolation L2 switch-b on");
        assertThat(d.issuedDescriptions()).filteredOn(o -> o.startsWith("isolation ")).containsExactly(
                "isolation L1 fabric off", "isolation L1 san off", "isolation L2 switch-b off",
                "isolation L1 fabric on", "isolation L1 san on", "isolation L2 switch-b on");
        List<Stage> stages = d.stagesVisited();
        assertThat(stages.lastIndexOf(Stage.UNFENCE)).isLessThan(stages.indexOf(Stage.AWAIT_READY));
    }

    @Test
    @DisplayName("soft methods of every level are skipped when un-fencing")
    void softMethodsOfEveryLevelAreSkipped() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(),
                plan(0, List.of(List.of(FABRIC, NODE_AGENT), List.of(SYSRQ, SAN))));
        isolate(d, true, false, true, true);

        powerFenceAndPowerOn(d);
        unfenceAll(d);

        assertThat(unfenceOperations(d)).containsExactly("isolation L1 fabric on", "isolation L2 san on");
    }

    @Test
    @DisplayName("levels after the one that succeeded never ran, and are not un-fenced")
    void levelsNeverAttemptedAreNotUnfenced() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(FABRIC), List.of(SAN))));
        isolate(d, true);
        assertThat(d.record.isolationLevel()).hasValue(0);

        powerFenceAndPowerOn(d);
        unfenceAll(d);

        assertThat(unfenceOperations(d)).containsExactly("isolation L1 fabric on");
    }

    @Test
    @DisplayName("a power method of an earlier isolation level that may have turned the node off gets ON as well")
    void powerMethodOfEarlierLevelIsOnAgain() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(OUTLET, FABRIC), List.of(SAN))));
        isolate(d, true, false, true);

        powerFenceAndPowerOn(d);
        unfenceAll(d);

        assertThat(unfenceOperations(d)).containsExactly("isolation L1 outlet on", "isolation L1 fabric on",
                "isolation L2 san on");
    }

    @Test
    @DisplayName("each un-fence ON is retried after a backoff until it succeeds, then the walk goes on across levels")
    void failedUnfenceIsRetriedThenGoesOnToTheNextLevel() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(FABRIC, SAN), List.of(SWITCH_B))));
        isolate(d, true, false, true);
        powerFenceAndPowerOn(d);

        Effect.RunAgent first = d.agentEffect();
        d.answerAfter(Duration.ofSeconds(1), FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.record.waitUntil()).contains(d.now.plusSeconds(1));
        d.wake();
        assertThat(d.agentEffect().level()).isEqualTo(first.level());
        assertThat(d.agentEffect().method()).isEqualTo(first.method());
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.agentEffect().level()).isZero();
        assertThat(d.agentEffect().method()).isEqualTo(1);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.agentEffect().level()).isEqualTo(1);
        assertThat(d.agentEffect().method()).isZero();
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);

        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(unfenceOperations(d)).containsExactly("isolation L1 fabric on", "isolation L1 fabric on",
                "isolation L1 san on", "isolation L2 switch-b on");
    }

    @Test
    @DisplayName("an un-fence that keeps failing fails the step; the Alert names every method not yet un-fenced")
    void gaveUpDuringUnfenceNamesEveryMethodLeft() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().maxRestarts(0).build(),
                plan(0, List.of(List.of(FABRIC, SAN), List.of(SWITCH_B))));
        isolate(d, true, false, true);
        powerFenceAndPowerOn(d);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);

        int guard = 0;
        while (d.record.stage() == Stage.UNFENCE) {
            assertThat(guard++).isLessThan(100);
            if (d.record.inFlight().isPresent()) {
                d.answerAfter(Duration.ofSeconds(2), FenceStatus.FAILED, PowerState.UNKNOWN);
            } else {
                d.wake();
            }
        }

        assertThat(d.record.gaveUp()).isTrue();
        assertThat(d.stagesVisited()).doesNotContain(Stage.AWAIT_READY);
        assertThat(unfenceOperations(d)).doesNotContain("isolation L2 switch-b on");
        assertThat(d.events(FenceEvent.Alert.class)).singleElement().satisfies(alert ->
                assertThat(alert.reason()).contains("may still be cut off by isolation level 1 (san), level 2 (switch-b)")
                        .contains("run ON on its methods by hand before it rejoins").doesNotContain("fabric"));
    }

    @Test
    @DisplayName("soft fencing failing on the last level: every fabric method of every level is un-fenced afterwards")
    void softFallThroughUnfencesEveryLevel() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(),
                plan(0, List.of(List.of(FABRIC), List.of(SAN, SYSRQ))));
        isolate(d, false, true, false);
        assertThat(d.powerFencingReason()).contains("power fencing follows");
        assertThat(d.record.isolationLevel()).hasValue(1);

        powerFenceAndPowerOn(d);
        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        unfenceAll(d);

        assertThat(unfenceOperations(d)).containsExactly("isolation L1 fabric on", "isolation L2 san on");
    }

    @Test
    @DisplayName("after a restart the levels an earlier run isolated with are un-fenced too, not only this run's level")
    void restartUnfencesLevelsOfEarlierRuns() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(FABRIC), List.of(SAN))));
        isolate(d, false, true);
        d.answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.gaveUp()).isFalse();

        d.wake();
        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_CLUSTER);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        isolate(d, true);
        powerFenceAndPowerOn(d);
        unfenceAll(d);

        assertThat(unfenceOperations(d)).containsExactly("isolation L1 fabric on", "isolation L2 san on");
    }

    @Test
    @DisplayName("a flow that gives up during isolation un-fences nothing (the node is not known to be stopped), and"
            + " its Alert names the fabric methods that may still cut it off")
    void gaveUpDuringIsolationLeavesFabricOffAndSaysSo() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().maxRestarts(0).build(),
                plan(0, List.of(List.of(FABRIC, NODE_AGENT, SAN))));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN)
                .answer(FenceStatus.FAILED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.gaveUp()).isTrue();
        assertThat(d.agentEffects(FenceAction.ON)).isEmpty();
        assertThat(d.events(FenceEvent.Alert.class)).singleElement().satisfies(alert ->
                assertThat(alert.reason()).contains("may still be cut off by isolation level 1 (fabric, san)")
                        .contains("run ON on its methods by hand before it rejoins").doesNotContain("node-agent"));
    }

    @Test
    @DisplayName("with soft methods only, nothing is un-fenced whichever levels ran")
    void softOnlyLevelsNeedNoUnfence() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(0, List.of(List.of(SYSRQ), List.of(NODE_AGENT))));
        isolate(d, false, true);

        powerFenceAndPowerOn(d);

        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.reason()).contains("soft fencing only, with nothing to un-fence");
        assertThat(d.agentEffects(FenceAction.ON)).noneMatch(e -> e.step() == FenceStep.ISOLATION);
    }
}
