package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static dev.remedy.core.flow.FlowDriver.FABRIC;
import static dev.remedy.core.flow.FlowDriver.NODE_AGENT;
import static dev.remedy.core.flow.FlowDriver.SYSRQ;
import static dev.remedy.core.flow.FlowDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
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

/**
 * The soft-fence grace: after an isolation level with a soft method succeeded, the flow waits up to
 * {@link FlowSettings#softFenceGrace()} for the node to come back before it powers it off (oVirt: soft fence, then
 * hard fence only a host that did not come back). The driver settings use a 5 s race delay with no spread.
 */
class FenceFlowSoftGraceTest {

    private static final Duration ISOLATION_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POWER_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration GRACE = FlowSettings.DEFAULT_SOFT_FENCE_GRACE;
    /** How often the tests tick, as an engine's reconcile pass would. */
    private static final Duration PASS = Duration.ofSeconds(10);

    /** Isolation levels as given (no retries), power management = bmc (no retries), no recovery. */
    private static NodePlan plan(List<List<ResolvedMethod>> isolation) {
        return FlowDriver.plan(new StepPlan(ISOLATION_TIMEOUT, 0, isolation),
                new StepPlan(POWER_TIMEOUT, 0, List.of(List.of(BMC))), StepPlan.none(Duration.ofSeconds(60)));
    }


    /**
     * Isolating with a soft reboot (sysrq) on the only level, which then succeeds: RACE_DELAY for the grace, or with
     * no grace OFF in flight.
     */
    private static FlowDriver softRebooted(FlowSettings settings) {
        FlowDriver d = FlowDriver.isolating(settings, plan(List.of(List.of(SYSRQ))));
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.REBOOT);
        d.answerAfter(Duration.ofSeconds(2), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        FlowDriver.assertPowerFencingBegun(d);
        return d;
    }

    /** Ticks every {@link #PASS} up to, not including, {@code until}; asserts that nothing was issued meanwhile. */
    private static void idleUntil(FlowDriver d, Instant until) {
        while (d.now.plus(PASS).isBefore(until)) {
            d.tickAfter(PASS);
            assertThat(d.last.effects()).as("nothing is issued during the soft-fence grace (at %s)", d.now).isEmpty();
            assertThat(d.record.stage()).isEqualTo(Stage.RACE_DELAY);
        }
    }

    private static boolean everPoweredOff(FlowDriver d) {
        return d.agentEffects(FenceAction.OFF).stream().anyMatch(e -> e.step() == FenceStep.POWER_MANAGEMENT);
    }

    @Test
    @DisplayName("after a successful soft reboot the flow waits the grace, then power fences as before when the node"
            + " does not come back")
    void graceWaitedThenPowerFencing() {
        FlowDriver d = softRebooted(FlowDriver.settings().build());
        Instant softDone = d.now;
        assertThat(d.record.waitUntil()).contains(softDone.plus(GRACE));
        assertThat(d.flow.nextWake(d.record)).contains(softDone.plus(GRACE));
        assertThat(d.record.reason()).contains("soft fencing succeeded").contains("report Ready");

        idleUntil(d, softDone.plus(GRACE));
        d.readiness(false, Optional.empty());
        assertThat(d.record.stage()).isEqualTo(Stage.RACE_DELAY);
        d.tickAt(softDone.plus(GRACE).minusMillis(1));
        assertThat(d.last.effects()).isEmpty();

        d.wake();
        assertThat(d.now).isEqualTo(softDone.plus(GRACE));
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().step()).isEqualTo(FenceStep.POWER_MANAGEMENT);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.confirmation()).hasValueSatisfying(c ->
                assertThat(c.kind()).isEqualTo(Confirmation.Kind.STATUS_READ_OFF));
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN)
                .answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.issuedDescriptions()).containsExactly("cluster isolate", "isolation L1 sysrq reboot",
                "power_management L1 bmc off", "power_management L1 bmc status", "cluster release_workloads",
                "cluster lift_out_of_service", "power_management L1 bmc on");
    }

    @Test
    @DisplayName("a node that reports Ready within the grace (a restarted kubelet) ends the flow without any power-off"
            + " or release")
    void readyWithinGraceEndsWithoutPowerOff() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(List.of(List.of(NODE_AGENT))));
        d.answerAfter(Duration.ofSeconds(2), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        Instant softDone = d.now;
        idleUntil(d, softDone.plus(Duration.ofSeconds(95)));

        d.readiness(true, Optional.of(T0.minus(Duration.ofDays(3))));

        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.confirmation()).as("a kubelet restart proves no stop").isEmpty();
        assertThat(d.record.poweredOff()).isFalse();
        assertThat(d.record.reason()).contains("before any power operation");
        d.readiness(true, Optional.empty()).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(everPoweredOff(d)).isFalse();
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
        assertThat(d.issuedDescriptions()).containsExactly("cluster isolate", "isolation L1 node-agent reboot",
                "cluster recover");
    }

    @Test
    @DisplayName("Ready within the grace on a level that also fenced a fabric: no power-off, the fabric is un-fenced")
    void readyWithinGraceUnfencesTheLevel() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(List.of(List.of(FABRIC, NODE_AGENT))));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.waitUntil()).contains(d.now.plus(GRACE));
        idleUntil(d, d.now.plus(Duration.ofSeconds(60)));

        d.readiness(true, Optional.empty());

        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        assertThat(d.agentEffect().step()).isEqualTo(FenceStep.ISOLATION);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.ON);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(everPoweredOff(d)).isFalse();
    }

    @Test
    @DisplayName("a boot after the decision reported within the grace ends the flow as REBOOTED_AFTER_DECISION")
    void rebootedAfterDecisionWithinGraceEndsViaThatRoute() {
        FlowDriver d = softRebooted(FlowDriver.settings().build());
        idleUntil(d, d.now.plus(Duration.ofSeconds(75)));
        Instant bootedAt = d.now.minusSeconds(40);

        d.readiness(true, Optional.of(bootedAt));

        assertThat(d.record.confirmation()).hasValueSatisfying(c -> {
            assertThat(c.kind()).isEqualTo(Confirmation.Kind.REBOOTED_AFTER_DECISION);
            assertThat(c.source()).contains(bootedAt.toString());
        });
        assertThat(d.lastEvents(FenceEvent.Confirmed.class)).hasSize(1);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.reason()).contains("rebooted after the decision");
        assertThat(d.record.poweredOff()).isFalse();
        assertThat(d.record.released()).isFalse();
        assertThat(d.last.effects()).isEmpty();
        d.readiness(true, Optional.of(bootedAt)).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(everPoweredOff(d)).isFalse();
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
        assertThat(d.issuedDescriptions()).containsExactly("cluster isolate", "isolation L1 sysrq reboot",
                "cluster recover");
    }

    @Test
    @DisplayName("a soft method that failed (the host is likely dead) gets no grace: power fencing at once")
    void failedSoftMethodGetsNoGrace() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(List.of(List.of(SYSRQ))));
        d.answerAfter(Duration.ofSeconds(3), FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.record.stepDeadline()).isEqualTo(d.now.plus(POWER_TIMEOUT));
        assertThat(d.powerFencingReason()).doesNotContain("report Ready");

        assertThat(d.agentEffect().step()).isEqualTo(FenceStep.POWER_MANAGEMENT);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
    }

    @Test
    @DisplayName("a soft method that succeeded but whose level then failed gets no grace from the fallback level")
    void softThenFailedLevelGetsNoGraceFromPowerLevel() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(),
                plan(List.of(List.of(NODE_AGENT, FABRIC), List.of(FlowDriver.method("outlet")))));
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.agentEffect().level()).isEqualTo(1);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);

        assertThat(d.record.stage()).as("level 2 holds no soft method").isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
    }

    @Test
    @DisplayName("an isolation level without a soft method gets no grace")
    void noSoftMethodNoGrace() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(List.of(List.of(FABRIC))));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().step()).isEqualTo(FenceStep.POWER_MANAGEMENT);
        assertThat(d.record.stepDeadline()).isEqualTo(d.now.plus(POWER_TIMEOUT));
    }

    @Test
    @DisplayName("softFenceGrace 0 keeps the old behaviour: power fencing right after isolation")
    void zeroGraceIsTheOldBehaviour() {
        FlowDriver d = softRebooted(FlowDriver.settings().softFenceGrace(Duration.ZERO).build());
        Instant softDone = d.now;
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.record.stepStartedAt()).isEqualTo(softDone);
        assertThat(d.record.stepDeadline()).isEqualTo(softDone.plus(POWER_TIMEOUT));
        assertThat(d.powerFencingReason()).isEqualTo("isolated by level 1");

        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        assertThat(d.agentEffect().budget()).isEqualTo(POWER_TIMEOUT);
    }

    @Test
    @DisplayName("the grace does not shorten the power-management step: it starts, with its full budget, when the"
            + " grace ends")
    void powerDeadlineNotShortenedByGrace() {
        FlowDriver d = softRebooted(FlowDriver.settings().build());
        Instant softDone = d.now;
        Instant graceEnds = softDone.plus(GRACE);
        assertThat(d.record.stepStartedAt()).isEqualTo(graceEnds);
        assertThat(d.record.stepDeadline()).isEqualTo(graceEnds.plus(POWER_TIMEOUT));

        d.wake();
        assertThat(d.now).isEqualTo(graceEnds);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        assertThat(d.agentEffect().budget()).as("the same budget as without a grace").isEqualTo(POWER_TIMEOUT);

        // STATUS keeps reading ON: the step fails at its own deadline, a full step timeout after the grace
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        while (d.record.stage() == Stage.CONFIRM_OFF) {
            if (d.record.inFlight().isPresent()) {
                d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
            } else {
                d.wake();
            }
        }
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.reason()).contains("deadline");
        assertThat(d.now).isEqualTo(graceEnds.plus(POWER_TIMEOUT));
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
    }

    @Test
    @DisplayName("a pause during the grace shifts the grace and the power step alike")
    void pauseDuringGraceShiftsBoth() {
        FlowDriver d = softRebooted(FlowDriver.settings().build());
        Instant softDone = d.now;
        d.after(Duration.ofSeconds(30)).admin(Observation.AdminCommand.PAUSE);
        d.after(Duration.ofMinutes(10)).admin(Observation.AdminCommand.RESUME);

        assertThat(d.record.waitUntil()).contains(softDone.plus(GRACE).plus(Duration.ofMinutes(10)));
        assertThat(d.record.stepDeadline()).isEqualTo(softDone.plus(GRACE).plus(POWER_TIMEOUT)
                .plus(Duration.ofMinutes(10)));
        d.wake();
        assertThat(d.agentEffect().budget()).isEqualTo(POWER_TIMEOUT);
    }

    @Test
    @DisplayName("a restart after an OFF was sent gets no grace: a node remedy may have powered off cannot come back")
    void noGraceAfterPowerOffOnRestart() {
        FlowDriver d = softRebooted(FlowDriver.settings().build());
        d.wake().answer(FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.poweredOff()).isTrue();

        d.wake().answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.REBOOT);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.record.restarts()).isEqualTo(1);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        assertThat(d.record.stepDeadline()).isEqualTo(d.now.plus(POWER_TIMEOUT));
    }

    @Test
    @DisplayName("Ready with a boot after the decision while the soft reboot is still in flight is kept: the flow ends"
            + " once isolation is over, without powering off")
    void readyDuringInFlightSoftRebootIsKept() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().softFenceGrace(Duration.ZERO).build(),
                plan(List.of(List.of(SYSRQ))));
        Operation reboot = d.inFlight();

        d.after(Duration.ofSeconds(20)).readiness(true, Optional.of(d.now.minusSeconds(15)));

        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_AGENTS);
        assertThat(d.record.inFlight()).contains(reboot);
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.record.confirmation()).hasValueSatisfying(c ->
                assertThat(c.kind()).isEqualTo(Confirmation.Kind.REBOOTED_AFTER_DECISION));

        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.stagesVisited()).doesNotContain(Stage.POWER_OFF, Stage.RELEASE);
        assertThat(d.record.poweredOff()).isFalse();
        d.readiness(true, Optional.empty()).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(everPoweredOff(d)).isFalse();
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
    }

    @Test
    @DisplayName("a kept reboot also ends the flow when the soft reboot's own result is lost with the rebooting host")
    void readyDuringInFlightSoftRebootKeptWhenItsResultTimesOut() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().build(), plan(List.of(List.of(SYSRQ))));
        d.after(Duration.ofSeconds(25)).readiness(true, Optional.of(d.now.minusSeconds(20)));

        d.answerAfter(Duration.ofSeconds(5), FenceStatus.TIMED_OUT, PowerState.UNKNOWN);

        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.confirmation()).hasValueSatisfying(c ->
                assertThat(c.kind()).isEqualTo(Confirmation.Kind.REBOOTED_AFTER_DECISION));
        assertThat(everPoweredOff(d)).isFalse();
    }

    @Test
    @DisplayName("Ready without a boot after the decision during the soft reboot is not evidence and is not kept")
    void readyWithOldBootDuringSoftRebootIsNotKept() {
        FlowDriver d = FlowDriver.isolating(FlowDriver.settings().softFenceGrace(Duration.ZERO).build(),
                plan(List.of(List.of(SYSRQ))));

        d.readiness(true, Optional.of(T0.minusSeconds(60))).readiness(true, Optional.empty());

        assertThat(d.record.confirmation()).isEmpty();
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
    }

    @Test
    @DisplayName("softFenceGrace defaults to 2 minutes, accepts 0 and rejects a negative value by name")
    void settingValidated() {
        assertThat(FlowSettings.ofDefaults().softFenceGrace()).isEqualTo(Duration.ofMinutes(2));
        assertThat(FlowSettings.custom().softFenceGrace(Duration.ZERO).build().softFenceGrace()).isZero();
        assertThatThrownBy(() -> FlowSettings.custom().softFenceGrace(Duration.ofSeconds(-1)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("softFenceGrace").hasMessageContaining("negative");
        assertThatThrownBy(() -> FlowSettings.custom().softFenceGrace(null).build())
                .isInstanceOf(NullPointerException.class).hasMessageContaining("softFenceGrace");
    }
}
