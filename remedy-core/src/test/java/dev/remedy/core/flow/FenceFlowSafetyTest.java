package dev.remedy.core.flow;

import static dev.remedy.core.flow.FlowDriver.BMC;
import static dev.remedy.core.flow.FlowDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Workloads are released only after fencing is confirmed; nothing else counts as a confirmation. */
class FenceFlowSafetyTest {

    private static NodePlan oneBmc(Duration timeout) {
        return FlowDriver.plan(StepPlan.none(Duration.ofSeconds(60)),
                new StepPlan(timeout, 2, List.of(List.of(BMC))), StepPlan.none(Duration.ofSeconds(60)));
    }

    static Stream<Arguments> unconfirmingStatus() {
        return Stream.of(
                Arguments.of(FenceStatus.SUCCEEDED, PowerState.ON),
                Arguments.of(FenceStatus.SUCCEEDED, PowerState.UNKNOWN),
                Arguments.of(FenceStatus.FAILED, PowerState.OFF),
                Arguments.of(FenceStatus.FAILED, PowerState.UNKNOWN),
                Arguments.of(FenceStatus.TIMED_OUT, PowerState.OFF),
                Arguments.of(FenceStatus.TIMED_OUT, PowerState.UNKNOWN),
                Arguments.of(FenceStatus.UNSUPPORTED, PowerState.OFF),
                Arguments.of(FenceStatus.REFUSED, PowerState.UNKNOWN));
    }

    @ParameterizedTest(name = "STATUS {0}/{1}")
    @MethodSource("unconfirmingStatus")
    @DisplayName("after OFF succeeded, a STATUS that does not read OFF successfully keeps polling with a growing, "
            + "bounded backoff and never releases, until the step deadline fails the attempt")
    void statusWithoutOffNeverReleases(FenceStatus status, PowerState power) {
        FlowSettings settings = FlowDriver.settings().build();
        FlowDriver d = FlowDriver.poweringOff(settings, oneBmc(Duration.ofSeconds(300)));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.CONFIRM_OFF);

        List<Duration> backoffs = new ArrayList<>();
        int polls = 0;
        while (d.record.stage() == Stage.CONFIRM_OFF && polls < 500) {
            assertThat(d.agentEffect().action()).isEqualTo(FenceAction.STATUS);
            d.answerAfter(Duration.ofMillis(50), status, power);
            polls++;
            assertThat(d.record.stage()).isEqualTo(Stage.CONFIRM_OFF);
            assertThat(d.last.effects()).as("nothing is issued while backing off").isEmpty();
            backoffs.add(Duration.between(d.now, d.record.waitUntil().orElseThrow()));
            d.wake();
        }
        assertThat(polls).isBetween(10, 499);
        assertThat(backoffs.get(0)).isEqualTo(settings.backoffInitial());
        assertThat(backoffs).isSorted().allSatisfy(b -> assertThat(b).isLessThanOrEqualTo(settings.backoffMax()));
        assertThat(backoffs).contains(settings.backoffMax());
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
        assertThat(d.events(FenceEvent.Confirmed.class)).isEmpty();
        assertThat(d.record.confirmation()).isEmpty();
        assertThat(d.record.poweredOff()).as("an OFF was sent, so the node may be off").isTrue();
        assertThat(d.record.released()).isFalse();
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.record.state()).isEqualTo(FenceState.ERROR);
    }

    @Test
    @DisplayName("an OFF that timed out is never a confirmation: the only level fails and no STATUS or release follows")
    void offTimedOutIsNoConfirmation() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc(Duration.ofSeconds(60)));
        d.answerAfter(Duration.ofSeconds(3), FenceStatus.TIMED_OUT, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.FAILED);
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.record.confirmation()).isEmpty();
        assertThat(d.agentEffects(FenceAction.STATUS)).isEmpty();
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
        assertThat(d.events(FenceEvent.Confirmed.class)).isEmpty();
    }

    @Test
    @DisplayName("an OFF that timed out on level 1 moves to OFF on level 2, not to a STATUS read or a release")
    void offTimedOutMovesOn() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), FlowDriver.defaultPlan());
        d.answerAfter(Duration.ofSeconds(3), FenceStatus.TIMED_OUT, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        Effect.RunAgent next = d.agentEffect();
        assertThat(next.action()).isEqualTo(FenceAction.OFF);
        assertThat(next.level()).isEqualTo(1);
        assertThat(d.record.confirmation()).isEmpty();
    }

    @Test
    @DisplayName("a result carrying a stale or unknown operation id is ignored entirely")
    void staleResultIgnored() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc(Duration.ofSeconds(60)));
        String offId = d.inFlight().id();
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        NodeFence polling = d.record;
        String statusId = d.inFlight().id();
        assertThat(statusId).isNotEqualTo(offId);

        for (String id : List.of(offId, "n1#999", "other#" + statusId.substring(3), "")) {
            d.after(Duration.ofMillis(10)).apply(new Observation.Completed(id, FenceStatus.SUCCEEDED, PowerState.OFF,
                    "replayed"));
            assertThat(d.record).as("after a result for %s", id).isEqualTo(polling);
            assertThat(d.last.effects()).isEmpty();
            assertThat(d.last.events()).isEmpty();
        }
        assertThat(d.record.confirmation()).isEmpty();
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
    }

    @Test
    @DisplayName("a manual CONFIRM_OFF while STATUS polling waits confirms at once and releases")
    void manualConfirmWhilePolling() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc(Duration.ofSeconds(60)));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.inFlight()).isEmpty();
        d.after(Duration.ofMillis(100)).admin(Observation.AdminCommand.CONFIRM_OFF);
        assertThat(d.record.confirmation()).hasValueSatisfying(c -> {
            assertThat(c.kind()).isEqualTo(Confirmation.Kind.MANUAL);
            assertThat(c.source()).isEqualTo("alice");
        });
        assertThat(d.lastEvents(FenceEvent.Confirmed.class)).hasSize(1);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RELEASE_WORKLOADS);
    }

    @Test
    @DisplayName("a manual CONFIRM_OFF while OFF is in flight issues nothing until that result, then releases")
    void manualConfirmWhileOffInFlight() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc(Duration.ofSeconds(60)));
        Operation off = d.inFlight();
        d.admin(Observation.AdminCommand.CONFIRM_OFF);
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.record.inFlight()).contains(off);
        assertThat(d.record.confirmation()).isPresent();
        d.answerAfter(Duration.ofSeconds(20), FenceStatus.FAILED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RELEASE_WORKLOADS);
    }

    @Test
    @DisplayName("a manual CONFIRM_OFF during the hold releases right after isolation, without any power operation")
    void manualConfirmDuringHold() {
        FlowDriver d = FlowDriver.decided(FlowDriver.settings().build(), oneBmc(Duration.ofSeconds(60)));
        d.after(Duration.ofSeconds(1)).admin(Observation.AdminCommand.CONFIRM_OFF);
        assertThat(d.record.stage()).isEqualTo(Stage.HOLD);
        assertThat(d.last.effects()).isEmpty();
        d.tickAt(Duration.ofSeconds(30)).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.RELEASE);
        assertThat(d.clusterEffect().action()).isEqualTo(ClusterAction.RELEASE_WORKLOADS);
        assertThat(d.agentEffects(FenceAction.OFF)).isEmpty();
    }

    @Test
    @DisplayName("Ready with a boot after the decision during POWER_OFF confirms by reboot and goes to DONE without release")
    void rebootedAfterDecision() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc(Duration.ofSeconds(60)));
        d.after(Duration.ofSeconds(2)).readiness(true, Optional.of(T0.plusSeconds(10)));
        assertThat(d.record.confirmation()).hasValueSatisfying(c ->
                assertThat(c.kind()).isEqualTo(Confirmation.Kind.REBOOTED_AFTER_DECISION));
        assertThat(d.lastEvents(FenceEvent.Confirmed.class)).hasSize(1);
        assertThat(d.last.effects()).as("the OFF in flight is awaited, nothing new issued").isEmpty();
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);

        d.answerAfter(Duration.ofSeconds(1), FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.stage()).as("the OFF landed after the reboot: the node is powered on again")
                .isEqualTo(Stage.LIFT_OUT_OF_SERVICE);
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
        assertThat(d.record.released()).isFalse();
        assertThat(d.record.poweredOff()).isTrue();
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.ON);
        d.answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.record.poweredOff()).isFalse();
    }

    @Test
    @DisplayName("Ready with a boot after the decision while STATUS polling waits goes straight to DONE without release")
    void rebootedWhilePolling() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc(Duration.ofSeconds(60)));
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        d.after(Duration.ofMillis(300)).readiness(true, Optional.of(d.now.minusMillis(100)));
        assertThat(d.record.stage()).isEqualTo(Stage.AWAIT_READY);
        assertThat(d.last.effects()).isEmpty();
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
    }

    @Test
    @DisplayName("Ready with a boot before the decision, or with no boot time, is no confirmation")
    void bootBeforeDecisionIsNoConfirmation() {
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), oneBmc(Duration.ofSeconds(60)));
        NodeFence before = d.record;
        d.readiness(true, Optional.of(T0.minusSeconds(600)));
        assertThat(d.record).isEqualTo(before);
        d.readiness(true, Optional.of(T0));
        assertThat(d.record).isEqualTo(before);
        d.readiness(true, Optional.empty());
        assertThat(d.record).isEqualTo(before);
        assertThat(d.events(FenceEvent.Confirmed.class)).isEmpty();
    }

    @Test
    @DisplayName("OFF succeeded on one method of a two-method level is not enough to release")
    void halfLevelIsNotConfirmation() {
        NodePlan plan = FlowDriver.plan(StepPlan.none(Duration.ofSeconds(60)),
                new StepPlan(Duration.ofSeconds(60), 2, List.of(List.of(FlowDriver.PDU_A, FlowDriver.PDU_B))),
                StepPlan.none(Duration.ofSeconds(60)));
        FlowDriver d = FlowDriver.poweringOff(FlowDriver.settings().build(), plan);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        assertThat(d.record.levelConfirmed()).containsExactly("pdu-a");
        assertThat(d.record.confirmation()).isEmpty();
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().method()).isEqualTo(1);
        d.answer(FenceStatus.SUCCEEDED, PowerState.OFF).answer(FenceStatus.SUCCEEDED, PowerState.ON);
        assertThat(d.record.confirmation()).isEmpty();
        assertThat(d.everIssued(ClusterAction.RELEASE_WORKLOADS)).isFalse();
    }
}
