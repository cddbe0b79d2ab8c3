package dev.remedy.core.rules;

import static dev.remedy.core.rules.RemediationCondition.PERMANENT_NODE_DELETION_EXPECTED;
import static dev.remedy.core.rules.RemediationCondition.PROCESSING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.rules.RemediationCondition.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of the escalate state machine over arbitrary observation sequences. */
class EscalateRemediationPropertiesTest {

    /** One evaluation: seconds since the previous one, and what is observed. */
    record Tick(int seconds, RemediationObservation observation) {
    }

    @Provide
    Arbitrary<Tick> ticks() {
        Arbitrary<RemediationObservation> obs = Combinators.combine(Arbitraries.of(true, false),
                Arbitraries.of(true, false), Arbitraries.of(true, false),
                Arbitraries.of(true, false, false, false, false, false, false, false, false, false))
                .as((on, node, ready, marker) -> new RemediationObservation(on, node, node && ready, marker));
        return Combinators.combine(Arbitraries.integers().between(0, 400), obs).as(Tick::new);
    }

    @Property(tries = 1000)
    @Label("the machine is deleted only after the host was seen off; conditions always match the phase")
    void invariants(@ForAll @IntRange(min = 0, max = 3) int deleteAfterRetries,
            @ForAll @Size(max = 60) List<@From("ticks") Tick> ticks) {
        EscalateStrategy strategy = new EscalateStrategy(deleteAfterRetries, Duration.ofSeconds(300),
                Duration.ofSeconds(600));
        RemediationStatus s = RemediationStatus.initial();
        Instant now = Instant.parse("2024-05-01T00:00:00Z");
        boolean seenOffWhilePoweringOff = false;
        for (Tick t : ticks) {
            now = now.plusSeconds(t.seconds());
            RemediationPhase before = s.phase();
            RemediationStep step = EscalateRemediation.next(strategy, s, t.observation(), now);
            if (before == RemediationPhase.POWERING_OFF && !t.observation().poweredOn()
                    && !t.observation().timedOutMarker()) {
                seenOffWhilePoweringOff = true;
            }
            if (step.actions().contains(RemediationAction.DELETE_MACHINE)) {
                assertThat(seenOffWhilePoweringOff).as("deleted without a verified power off").isTrue();
                assertThat(step.status().condition(PERMANENT_NODE_DELETION_EXPECTED).orElseThrow().status())
                        .isEqualTo(Status.TRUE);
            }
            if (before.terminal()) {
                assertThat(step.status()).isEqualTo(s);
                assertThat(step.actions()).isEmpty();
            }
            s = step.status();
            assertThat(s.retryCount()).isLessThanOrEqualTo(deleteAfterRetries);
            if (s.phase() != RemediationPhase.PENDING) {
                Status processing = s.condition(PROCESSING).orElseThrow().status();
                assertThat(processing).isEqualTo(s.phase().terminal() ? Status.FALSE : Status.TRUE);
            }
            boolean deleting = s.phase() == RemediationPhase.DELETING || s.phase() == RemediationPhase.DELETED;
            if (deleting) {
                assertThat(s.condition(PERMANENT_NODE_DELETION_EXPECTED).orElseThrow().status())
                        .isEqualTo(Status.TRUE);
            }
            if (s.phase() == RemediationPhase.POWERING_OFF || s.phase() == RemediationPhase.WAITING_FOR_NODE) {
                assertThat(s.condition(PERMANENT_NODE_DELETION_EXPECTED).orElseThrow().status())
                        .isEqualTo(Status.FALSE);
            }
        }
    }
}
