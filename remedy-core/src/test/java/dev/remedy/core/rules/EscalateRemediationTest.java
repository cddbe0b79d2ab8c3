package dev.remedy.core.rules;

import static dev.remedy.core.rules.RemediationCondition.PERMANENT_NODE_DELETION_EXPECTED;
import static dev.remedy.core.rules.RemediationCondition.PROCESSING;
import static dev.remedy.core.rules.RemediationCondition.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.rules.RemediationCondition.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The escalate strategy's state machine: every phase transition, the conditions and the timed-out marker. */
class EscalateRemediationTest {

    private static final Instant T0 = Instant.parse("2024-05-01T00:00:00Z");
    /** One retry; 300 s to power off; 600 s for the node to be ready. */
    private static final EscalateStrategy STRATEGY = new EscalateStrategy(1, Duration.ofSeconds(300),
            Duration.ofSeconds(600));

    private static RemediationStatus in(RemediationPhase phase, int retries) {
        return new RemediationStatus(phase, retries, phase == RemediationPhase.PENDING ? Optional.empty()
                : Optional.of(T0), List.of());
    }

    @ParameterizedTest(name = "[{index}] {0} retries={1} +{2}s on={3} node={4} ready={5} marker={6} -> {7} {8} {9}")
    @CsvSource(delimiter = '|', textBlock = """
            # phase          | retries | elapsed | on    | node  | ready | marker | next phase       | retries' | actions
            PENDING          | 0       | 0       | true  | true  | false | false  | POWERING_OFF     | 0        | ADD_REBOOT_ANNOTATION
            PENDING          | 0       | 0       | false | false | false | false  | POWERING_OFF     | 0        | ADD_REBOOT_ANNOTATION
            PENDING          | 0       | 0       | true  | true  | false | true   | CANCELLED        | 0        | -
            POWERING_OFF     | 0       | 10      | true  | true  | false | false  | POWERING_OFF     | 0        | ADD_REBOOT_ANNOTATION
            POWERING_OFF     | 0       | 299     | true  | true  | true  | false  | POWERING_OFF     | 0        | ADD_REBOOT_ANNOTATION
            POWERING_OFF     | 0       | 300     | true  | true  | false | false  | FAILED           | 0        | REMOVE_REBOOT_ANNOTATION
            POWERING_OFF     | 1       | 900     | true  | true  | true  | false  | FAILED           | 1        | REMOVE_REBOOT_ANNOTATION
            POWERING_OFF     | 0       | 10      | false | true  | false | false  | WAITING_FOR_NODE | 0        | REMOVE_REBOOT_ANNOTATION
            POWERING_OFF     | 0       | 500     | false | false | false | false  | WAITING_FOR_NODE | 0        | REMOVE_REBOOT_ANNOTATION
            POWERING_OFF     | 0       | 10      | true  | true  | false | true   | CANCELLED        | 0        | REMOVE_REBOOT_ANNOTATION
            POWERING_OFF     | 0       | 10      | false | true  | false | true   | CANCELLED        | 0        | REMOVE_REBOOT_ANNOTATION
            WAITING_FOR_NODE | 0       | 10      | true  | true  | true  | false  | SUCCEEDED        | 0        | -
            WAITING_FOR_NODE | 0       | 700     | true  | true  | true  | false  | SUCCEEDED        | 0        | -
            WAITING_FOR_NODE | 0       | 10      | false | true  | false | false  | WAITING_FOR_NODE | 0        | REMOVE_REBOOT_ANNOTATION
            WAITING_FOR_NODE | 0       | 599     | true  | false | false | false  | WAITING_FOR_NODE | 0        | REMOVE_REBOOT_ANNOTATION
            WAITING_FOR_NODE | 0       | 600     | true  | true  | false | false  | POWERING_OFF     | 1        | ADD_REBOOT_ANNOTATION
            WAITING_FOR_NODE | 1       | 600     | true  | true  | false | false  | DELETING         | 1        | DELETE_MACHINE
            WAITING_FOR_NODE | 1       | 600     | false | false | false | false  | DELETING         | 1        | DELETE_MACHINE
            WAITING_FOR_NODE | 0       | 10      | true  | true  | false | true   | CANCELLED        | 0        | -
            WAITING_FOR_NODE | 0       | 10      | true  | true  | true  | true   | CANCELLED        | 0        | -
            DELETING         | 1       | 10      | true  | true  | false | false  | DELETING         | 1        | DELETE_MACHINE
            DELETING         | 1       | 10      | true  | true  | true  | false  | DELETING         | 1        | DELETE_MACHINE
            DELETING         | 1       | 10      | false | false | false | false  | DELETED          | 1        | -
            DELETING         | 1       | 10      | true  | true  | false | true   | CANCELLED        | 1        | -
            """)
    @DisplayName("each (phase, observation, elapsed time) moves to the phase of its row with the actions of its row")
    void transitions(RemediationPhase phase, int retries, long elapsed, boolean on, boolean node, boolean ready,
            boolean marker, RemediationPhase next, int nextRetries, String actions) {
        RemediationStep step = EscalateRemediation.next(STRATEGY, in(phase, retries),
                new RemediationObservation(on, node, ready, marker), T0.plusSeconds(elapsed));
        List<RemediationAction> expected = actions.equals("-") ? List.of()
                : Arrays.stream(actions.split(" ")).map(RemediationAction::valueOf).toList();
        assertThat(step.status().phase()).isEqualTo(next);
        assertThat(step.status().retryCount()).isEqualTo(nextRetries);
        assertThat(step.actions()).containsExactlyElementsOf(expected);
        Instant expectedSince = next == phase ? T0 : T0.plusSeconds(elapsed);
        assertThat(step.status().phaseSince()).contains(expectedSince);
    }

    @ParameterizedTest(name = "{0} stays {0}")
    @EnumSource(value = RemediationPhase.class, names = {"SUCCEEDED", "DELETED", "FAILED", "CANCELLED"})
    @DisplayName("a terminal phase never changes and never acts, whatever is observed")
    void terminal(RemediationPhase phase) {
        RemediationStatus s = in(phase, 0);
        for (int bits = 0; bits < 16; bits++) {
            boolean node = (bits & 2) != 0;
            RemediationObservation o = new RemediationObservation((bits & 1) != 0, node, node && (bits & 4) != 0,
                    (bits & 8) != 0);
            RemediationStep step = EscalateRemediation.next(STRATEGY, s, o, T0.plusSeconds(100_000));
            assertThat(step.status()).isEqualTo(s);
            assertThat(step.actions()).isEmpty();
        }
        assertThat(phase.terminal()).isTrue();
    }

    @Test
    @DisplayName("a node that comes back after the first cycle: Processing true then false, Succeeded unknown then true")
    void happyPathConditions() {
        RemediationStatus s = RemediationStatus.initial();
        s = EscalateRemediation.next(STRATEGY, s, obs(true, true, false), T0).status();
        assertThat(cond(s, PROCESSING)).isEqualTo(Status.TRUE);
        assertThat(cond(s, SUCCEEDED)).isEqualTo(Status.UNKNOWN);
        assertThat(cond(s, PERMANENT_NODE_DELETION_EXPECTED)).isEqualTo(Status.FALSE);
        s = EscalateRemediation.next(STRATEGY, s, obs(false, true, false), T0.plusSeconds(20)).status();
        assertThat(s.phase()).isEqualTo(RemediationPhase.WAITING_FOR_NODE);
        assertThat(s.condition(PROCESSING).orElseThrow().lastTransitionTime()).as("status unchanged").isEqualTo(T0);
        s = EscalateRemediation.next(STRATEGY, s, obs(true, true, true), T0.plusSeconds(200)).status();
        assertThat(s.phase()).isEqualTo(RemediationPhase.SUCCEEDED);
        assertThat(cond(s, PROCESSING)).isEqualTo(Status.FALSE);
        assertThat(cond(s, SUCCEEDED)).isEqualTo(Status.TRUE);
        assertThat(cond(s, PERMANENT_NODE_DELETION_EXPECTED)).isEqualTo(Status.FALSE);
        assertThat(s.condition(SUCCEEDED).orElseThrow().lastTransitionTime()).isEqualTo(T0.plusSeconds(200));
        assertThat(s.retryCount()).isZero();
    }

    @Test
    @DisplayName("a node that never comes back: two cycles, then PermanentNodeDeletionExpected before the deletion")
    void escalationToDeletion() {
        RemediationStatus s = RemediationStatus.initial();
        long t = 0;
        s = EscalateRemediation.next(STRATEGY, s, obs(true, true, false), T0.plusSeconds(t)).status();
        for (int cycle = 0; cycle < 2; cycle++) {
            t += 30;
            s = EscalateRemediation.next(STRATEGY, s, obs(false, true, false), T0.plusSeconds(t)).status();
            assertThat(s.phase()).isEqualTo(RemediationPhase.WAITING_FOR_NODE);
            t += 600;
            RemediationStep step = EscalateRemediation.next(STRATEGY, s, obs(true, true, false), T0.plusSeconds(t));
            s = step.status();
            if (cycle == 0) {
                assertThat(s.phase()).isEqualTo(RemediationPhase.POWERING_OFF);
                assertThat(s.retryCount()).isEqualTo(1);
                assertThat(cond(s, PERMANENT_NODE_DELETION_EXPECTED)).isEqualTo(Status.FALSE);
            } else {
                assertThat(s.phase()).isEqualTo(RemediationPhase.DELETING);
                assertThat(step.actions()).containsExactly(RemediationAction.DELETE_MACHINE);
                assertThat(cond(s, PERMANENT_NODE_DELETION_EXPECTED)).isEqualTo(Status.TRUE);
                assertThat(cond(s, PROCESSING)).isEqualTo(Status.TRUE);
            }
        }
        s = EscalateRemediation.next(STRATEGY, s, obs(true, false, false), T0.plusSeconds(t + 5)).status();
        assertThat(s.phase()).isEqualTo(RemediationPhase.DELETED);
        assertThat(cond(s, SUCCEEDED)).isEqualTo(Status.TRUE);
        assertThat(cond(s, PROCESSING)).isEqualTo(Status.FALSE);
        assertThat(cond(s, PERMANENT_NODE_DELETION_EXPECTED)).isEqualTo(Status.TRUE);
    }

    @Test
    @DisplayName("with deleteAfterRetries 0 the machine is deleted after the first failed cycle")
    void noRetries() {
        EscalateStrategy none = new EscalateStrategy(0, Duration.ofSeconds(300), Duration.ofSeconds(600));
        RemediationStep step = EscalateRemediation.next(none, in(RemediationPhase.WAITING_FOR_NODE, 0),
                obs(true, true, false), T0.plusSeconds(600));
        assertThat(step.status().phase()).isEqualTo(RemediationPhase.DELETING);
    }

    @Test
    @DisplayName("a host that never powers off fails the remediation and is never deleted")
    void powerOffTimeoutFails() {
        RemediationStatus s = EscalateRemediation.next(STRATEGY, RemediationStatus.initial(), obs(true, true, false),
                T0).status();
        RemediationStep step = EscalateRemediation.next(STRATEGY, s, obs(true, true, false), T0.plusSeconds(300));
        assertThat(step.status().phase()).isEqualTo(RemediationPhase.FAILED);
        assertThat(step.actions()).containsExactly(RemediationAction.REMOVE_REBOOT_ANNOTATION);
        assertThat(cond(step.status(), SUCCEEDED)).isEqualTo(Status.FALSE);
        assertThat(step.status().condition(SUCCEEDED).orElseThrow().reason()).isEqualTo("PowerOffTimedOut");
        assertThat(cond(step.status(), PROCESSING)).isEqualTo(Status.FALSE);
    }

    @Test
    @DisplayName("the timed-out marker stops the remediation with Processing false and Succeeded false, reason TimedOut")
    void timedOutMarker() {
        RemediationStatus s = EscalateRemediation.next(STRATEGY, RemediationStatus.initial(), obs(true, true, false),
                T0).status();
        RemediationStep step = EscalateRemediation.next(STRATEGY, s,
                new RemediationObservation(true, true, false, true), T0.plusSeconds(5));
        assertThat(step.status().phase()).isEqualTo(RemediationPhase.CANCELLED);
        assertThat(step.actions()).as("never leave the host held off").containsExactly(
                RemediationAction.REMOVE_REBOOT_ANNOTATION);
        assertThat(step.status().condition(PROCESSING).orElseThrow().reason()).isEqualTo("TimedOut");
        assertThat(cond(step.status(), SUCCEEDED)).isEqualTo(Status.FALSE);
        assertThat(EscalateRemediation.TIMED_OUT_ANNOTATION).isEqualTo("remediation.medik8s.io/nhc-timed-out");
    }

    @Test
    @DisplayName("phases are persisted by explicit codes that round-trip; an unknown code lists the known ones")
    void phaseCodes() {
        for (RemediationPhase p : RemediationPhase.values()) {
            assertThat(RemediationPhase.fromCode(p.code())).isEqualTo(p);
        }
        assertThatThrownBy(() -> RemediationPhase.fromCode("Running")).hasMessageContaining("Running")
                .hasMessageContaining("PoweringOff");
    }

    @Test
    @DisplayName("invalid statuses, observations and times are refused with the field named")
    void validation() {
        assertThatThrownBy(() -> new RemediationObservation(true, false, true, false)).hasMessageContaining("nodeReady");
        assertThatThrownBy(() -> new RemediationStatus(RemediationPhase.POWERING_OFF, 0, Optional.empty(), List.of()))
                .hasMessageContaining("phaseSince");
        assertThatThrownBy(() -> new RemediationStatus(RemediationPhase.PENDING, -1, Optional.empty(), List.of()))
                .hasMessageContaining("retryCount");
        RemediationCondition c = new RemediationCondition(PROCESSING, Status.TRUE, "R", "m", T0);
        assertThatThrownBy(() -> new RemediationStatus(RemediationPhase.PENDING, 0, Optional.empty(), List.of(c, c)))
                .hasMessageContaining("conditions");
        assertThatThrownBy(() -> new RemediationCondition(PROCESSING, Status.TRUE, " ", "m", T0))
                .hasMessageContaining("reason");
        assertThatThrownBy(() -> EscalateRemediation.next(STRATEGY, in(RemediationPhase.POWERING_OFF, 0),
                obs(true, true, false), T0.minusSeconds(1))).hasMessageContaining("now");
    }

    private static RemediationObservation obs(boolean on, boolean node, boolean ready) {
        return new RemediationObservation(on, node, ready, false);
    }

    private static Status cond(RemediationStatus s, String type) {
        return s.condition(type).orElseThrow().status();
    }
}
