package dev.remedy.core.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.ResetAssumption.Assume;
import dev.remedy.core.nodeagent.ResetAssumption.Decision;
import dev.remedy.core.nodeagent.ResetAssumption.Refusal;
import dev.remedy.core.nodeagent.ResetAssumption.Refuse;
import dev.remedy.core.nodeagent.ResetAssumption.SeenNode;
import dev.remedy.core.nodeagent.ResetAssumption.Situation;
import dev.remedy.core.nodeagent.ResetAssumption.Wait;
import dev.remedy.core.rules.FailureDomainRule;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.core.rules.PeerTally;
import dev.remedy.core.rules.PeerVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** When the operator assumes that a node reset itself, and every reason it refuses to. */
class ResetAssumptionTest {

    private static final NodeAgentSettings SETTINGS = NodeAgentSettings.ofDefaults();
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final String RACK = NodeAgentSettings.RACK_LABEL;
    /** Six nodes, two per rack: batches of 3, 1 and 1 peers, 165 s + 3 × 10 s = 195 s, above the configured 180 s. */
    private static final Duration SAFE = SETTINGS.safeTime(6);
    private static final Duration ROUND = SETTINGS.timings().peerTime(6);

    private static NodeAgentReport report(String node, WatchdogMode mode, Instant renewed) {
        return new NodeAgentReport(node, mode, mode == WatchdogMode.ARMED ? Optional.of(Duration.ofSeconds(30))
                : Optional.empty(), SETTINGS.fingerprint(), renewed);
    }

    private static SeenNode node(String name, String rack, Optional<NodeAgentReport> report) {
        return new SeenNode(name, Map.of(RACK, rack), report);
    }

    private static SeenNode reporting(String name, String rack, Instant now) {
        return node(name, rack, Optional.of(report(name, WatchdogMode.ARMED, now)));
    }

    /** n1 in r1 went silent at T0; n2 (r1) and the other racks' nodes report at {@code now}. */
    private static Situation situation(NodeAgentReport n1, Instant now, boolean rackMateSilent) {
        SeenNode self = node("n1", "r1", Optional.of(n1));
        List<SeenNode> cluster = new ArrayList<>(List.of(self,
                rackMateSilent ? node("n2", "r1", Optional.of(report("n2", WatchdogMode.ARMED, T0)))
                        : reporting("n2", "r1", now),
                reporting("n3", "r2", now), reporting("n4", "r2", now), reporting("n5", "r3", now),
                reporting("n6", "r3", now)));
        return new Situation(self, Optional.of(T0.plusSeconds(20)), T0.plusSeconds(30), cluster);
    }

    @Test
    @DisplayName("armed, current, same settings: waits until the safe time after the mark plus a round of peers, not"
            + " a millisecond less, then assumes")
    void armedIsAssumedAfterTheSafeTime() {
        NodeAgentReport n1 = report("n1", WatchdogMode.ARMED, T0);
        Instant at = T0.plusSeconds(30).plus(SAFE).plus(ROUND);

        Decision before = ResetAssumption.decide(SETTINGS, situation(n1, at.minusMillis(1), false), at.minusMillis(1));
        Decision after = ResetAssumption.decide(SETTINGS, situation(n1, at, false), at);

        assertThat(SAFE).isEqualTo(Duration.ofSeconds(195));
        assertThat(before).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.until()).isEqualTo(at);
            assertThat(w.reason()).contains("watchdog armed").contains(SETTINGS.fingerprint());
        });
        assertThat(after).isInstanceOfSatisfying(Assume.class, a -> assertThat(a.since()).isEqualTo(at));
    }

    @Test
    @DisplayName("the safe time counts from the renewal when the agent renewed after the mark, and uses the device's"
            + " watchdog timeout when it is longer than the settings'")
    void laterRenewalAndLongerDevice() {
        Instant renewed = T0.plusSeconds(100);
        NodeAgentReport n1 = new NodeAgentReport("n1", WatchdogMode.ARMED, Optional.of(Duration.ofSeconds(100)),
                SETTINGS.fingerprint(), renewed);
        Duration longer = ResetAssumption.safeTime(SETTINGS, n1, 6);

        assertThat(longer).isEqualTo(SAFE.plusSeconds(40));
        Instant now = renewed.plus(longer).minusMillis(1);
        assertThat(ResetAssumption.decide(SETTINGS, situation(n1, now, false), now))
                .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.until()).isEqualTo(renewed.plus(longer)));
    }

    @Test
    @DisplayName("an agent that keeps renewing its Lease (it does not see the remediation, or rebooted and is healthy)"
            + " is never assumed reset: each renewal moves the end of the safe time")
    void renewingAgentIsNeverAssumed() {
        for (int minutes = 1; minutes <= 30; minutes++) {
            Instant now = T0.plus(Duration.ofMinutes(minutes));
            NodeAgentReport renewing = report("n1", WatchdogMode.ARMED, now.minusSeconds(15));
            assertThat(ResetAssumption.decide(SETTINGS, situation(renewing, now, false), now))
                    .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.until()).isAfter(now));
        }
    }

    @Test
    @DisplayName("watchdog none or software-reboot, no report, a report older than a Lease duration before the node"
            + " was last seen (or no heartbeat), other settings: never assumed, each with its reason")
    void refusals() {
        Instant late = T0.plus(Duration.ofDays(1));
        assertThat(refusal(report("n1", WatchdogMode.NONE, T0), late)).isEqualTo(Refusal.NOT_ARMED);
        assertThat(refusal(report("n1", WatchdogMode.SOFTWARE_REBOOT, T0), late)).isEqualTo(Refusal.NOT_ARMED);

        Situation none = new Situation(node("n1", "r1", Optional.empty()), Optional.of(T0), T0,
                situation(report("n1", WatchdogMode.ARMED, T0), late, false).cluster());
        assertThat(ResetAssumption.decide(SETTINGS, none, late)).isInstanceOfSatisfying(Refuse.class,
                r -> assertThat(r.refusal()).isEqualTo(Refusal.NO_REPORT));

        Duration window = NodeAgentContract.leaseDuration(SETTINGS);
        NodeAgentReport old = report("n1", WatchdogMode.ARMED, T0.plusSeconds(20).minus(window).minusMillis(1));
        assertThat(refusal(old, late)).isEqualTo(Refusal.STALE_REPORT);
        NodeAgentReport justInTime = report("n1", WatchdogMode.ARMED, T0.plusSeconds(20).minus(window));
        assertThat(ResetAssumption.decide(SETTINGS, situation(justInTime, late, false), late))
                .isInstanceOf(Assume.class);
        Situation unseen = new Situation(node("n1", "r1", Optional.of(report("n1", WatchdogMode.ARMED, T0))),
                Optional.empty(), T0, situation(justInTime, late, false).cluster());
        assertThat(ResetAssumption.decide(SETTINGS, unseen, late)).isInstanceOfSatisfying(Refuse.class,
                r -> assertThat(r.refusal()).isEqualTo(Refusal.STALE_REPORT));

        NodeAgentReport other = new NodeAgentReport("n1", WatchdogMode.ARMED, Optional.empty(), "0123456789abcdef",
                T0);
        assertThat(ResetAssumption.decide(SETTINGS, situation(other, late, false), late))
                .isInstanceOfSatisfying(Refuse.class, r -> {
                    assertThat(r.refusal()).isEqualTo(Refusal.OTHER_SETTINGS);
                    assertThat(r.reason()).contains("0123456789abcdef").contains(SETTINGS.fingerprint());
                });
    }

    private static Refusal refusal(NodeAgentReport n1, Instant now) {
        Decision d = ResetAssumption.decide(SETTINGS, situation(n1, now, false), now);
        assertThat(d).isInstanceOf(Refuse.class);
        return ((Refuse) d).refusal();
    }

    @Test
    @DisplayName("a rack cut off as a whole: its nodes stay up by the node-side rule, and the operator refuses to"
            + " assume their reset for the same reason")
    void rackCutOffIsRefusedByBothSides() {
        Instant late = T0.plus(Duration.ofDays(1));
        Situation s = situation(report("n1", WatchdogMode.ARMED, T0), late, true);

        // What n1 hears with its rack cut off: the other racks are silent, its rack-mate has no API server either.
        List<FailureDomainRule.Answer> heard = List.of(
                new FailureDomainRule.Answer("n3", Map.of(RACK, "r2"), PeerAnswer.NO_ANSWER),
                new FailureDomainRule.Answer("n5", Map.of(RACK, "r3"), PeerAnswer.NO_ANSWER),
                new FailureDomainRule.Answer("n4", Map.of(RACK, "r2"), PeerAnswer.NO_ANSWER),
                new FailureDomainRule.Answer("n6", Map.of(RACK, "r3"), PeerAnswer.NO_ANSWER),
                new FailureDomainRule.Answer("n2", Map.of(RACK, "r1"), PeerAnswer.API_ERROR));
        PeerVerdict.Result nodeSide = FailureDomainRule.apply(PeerVerdict.decide(PeerTally.of(
                heard.stream().map(FailureDomainRule.Answer::answer).toList()), 5, 1),
                SETTINGS.domains(Map.of(RACK, "r1")), heard);

        assertThat(nodeSide.reason()).isEqualTo(PeerVerdict.Reason.DOMAIN_CUT_OFF);
        assertThat(ResetAssumption.decide(SETTINGS, s, late)).isInstanceOfSatisfying(Refuse.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.DOMAIN_CUT_OFF);
            assertThat(r.reason()).contains(RACK + "=r1").contains("cut off as a whole");
        });
    }

    @Test
    @DisplayName("more than half of the peers silent: the node may have suspected the control plane; a lone node has"
            + " no peer: both refused")
    void controlPlaneAndNoPeers() {
        Instant late = T0.plus(Duration.ofDays(1));
        NodeAgentReport n1 = report("n1", WatchdogMode.ARMED, T0);
        SeenNode self = node("n1", "r1", Optional.of(n1));
        List<SeenNode> mostlySilent = List.of(self, node("a", "r2", Optional.empty()), node("b", "r3",
                Optional.empty()), reporting("c", "r2", late));

        assertThat(ResetAssumption.decide(SETTINGS, new Situation(self, Optional.of(T0), T0, mostlySilent), late))
                .isInstanceOfSatisfying(Refuse.class,
                        r -> assertThat(r.refusal()).isEqualTo(Refusal.CONTROL_PLANE_SUSPECTED));
        assertThat(ResetAssumption.decide(SETTINGS, new Situation(self, Optional.of(T0), T0, List.of(self)), late))
                .isInstanceOfSatisfying(Refuse.class, r -> assertThat(r.refusal()).isEqualTo(Refusal.NO_PEERS));
    }
}
