package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static dev.remedy.core.flow.FlowDriver.FABRIC;
import static dev.remedy.core.flow.FlowDriver.SAN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ReleaseAfter;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A topology that releases after isolation ({@code releaseAfter: isolation}): the pods go once a fabric level reads
 * isolated, never with the out-of-service taint, and the node stays cut off until it is stopped.
 */
class FenceFlowReleaseAfterIsolationTest {

    private static final Duration HOLD = Duration.ofSeconds(30);

    private static NodePlan plan(ReleaseAfter releaseAfter, List<List<ResolvedMethod>> power) {
        return new NodePlan(FlowDriver.NODE, "fabric", Map.of(
                FenceStep.ISOLATION, new StepPlan(Duration.ofSeconds(30), 0, List.of(List.of(FABRIC, SAN))),
                FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofSeconds(60), 0, power),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60))), releaseAfter);
    }

    /** Past the hold and the cluster isolation, with both fabric methods answering isolated. */
    private static FlowDriver isolated(NodePlan plan) {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(), plan);
        d.tickAt(FlowDriver.T0.plus(HOLD)).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        return d;
    }

    private static List<Confirmation.Kind> confirmations(FlowDriver d) {
        return d.events(FenceEvent.Confirmed.class).stream().map(c -> c.confirmation().kind()).toList();
    }

    @Test
    @DisplayName("fabric only: pods are deleted once the level reads isolated, then the node waits, isolated, for a"
            + " reboot, and only then is un-fenced")
    void fabricOnlyReleasesPodsAndWaitsForReboot() {
        FlowDriver d = isolated(plan(ReleaseAfter.ISOLATION, List.of()));

        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        assertThat(d.record.confirmation()).hasValueSatisfying(c -> {
            assertThat(c.kind()).isEqualTo(Confirmation.Kind.ISOLATED);
            assertThat(c.source()).isEqualTo("fabric+san");
        });
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.released()).isTrue();
        assertThat(d.record.stage()).as("no power method: wait, isolated").isEqualTo(Stage.RACE_DELAY);
        assertThat(d.record.reason()).contains("stays isolated until it reboots");

        d.tickAt(FlowDriver.T0.plus(Duration.ofHours(2)));
        assertThat(d.record.stage()).as("no deadline ends the wait").isEqualTo(Stage.RACE_DELAY);
        d.readiness(true, Optional.empty());
        assertThat(d.record.stage()).as("Ready without a reboot: its containers may still run")
                .isEqualTo(Stage.RACE_DELAY);
        assertThat(d.agentEffects(dev.remedy.spi.FenceAction.ON)).isEmpty();

        d.readiness(true, Optional.of(d.now.minusSeconds(5)));
        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        d.readiness(true, Optional.of(d.now.minusSeconds(10))).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);

        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.issuedDescriptions()).containsExactly("cluster isolate", "isolation L1 fabric off",
                "isolation L1 san off", "cluster release_pods", "isolation L1 fabric on", "isolation L1 san on",
                "cluster recover");
        assertThat(confirmations(d)).containsExactly(Confirmation.Kind.ISOLATED,
                Confirmation.Kind.REBOOTED_AFTER_DECISION);
    }

    @Test
    @DisplayName("with a power method: pods are released after isolation, then the node is powered off, confirmed"
            + " off, powered on and un-fenced; the out-of-service taint is never part of it")
    void powerFollowsTheIsolationRelease() {
        FlowDriver d = isolated(plan(ReleaseAfter.ISOLATION, List.of(List.of(BMC))));
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);

        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.confirmation().map(Confirmation::kind)).contains(Confirmation.Kind.STATUS_READ_OFF);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        d.readiness(true, Optional.of(d.now)).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);

        assertThat(d.record.state()).isEqualTo(FenceState.FINAL);
        assertThat(d.issuedDescriptions()).containsExactly("cluster isolate", "isolation L1 fabric off",
                "isolation L1 san off", "cluster release_pods", "power_management L1 bmc off",
                "power_management L1 bmc status", "cluster lift_out_of_service", "power_management L1 bmc on",
                "isolation L1 fabric on", "isolation L1 san on", "cluster recover");
        assertThat(d.issuedDescriptions()).doesNotContain("cluster release_workloads");
        assertThat(confirmations(d)).containsExactly(Confirmation.Kind.ISOLATED, Confirmation.Kind.STATUS_READ_OFF);
    }

    @Test
    @DisplayName("release after power (the default): the same isolation releases nothing; the release waits for OFF")
    void powerIsTheDefault() {
        FlowDriver d = isolated(plan(ReleaseAfter.POWER, List.of(List.of(BMC))));
        d.powerOffIssued();
        assertThat(d.record.confirmation()).isEmpty();
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        assertThat(d.issuedDescriptions()).doesNotContain("cluster release_pods");
    }

    @Test
    @DisplayName("an admin who confirms the isolated node off ends the wait: the flow goes on to un-fence")
    void adminConfirmationEndsTheWait() {
        FlowDriver d = isolated(plan(ReleaseAfter.ISOLATION, List.of()));
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.RACE_DELAY);

        d.admin(Observation.AdminCommand.CONFIRM_OFF);
        assertThat(confirmations(d)).containsExactly(Confirmation.Kind.ISOLATED, Confirmation.Kind.MANUAL);
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.UNFENCE);
    }
}
