package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.core.rules.PeerVerdict;
import dev.remedy.test.FakeTimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The poison-pill rules on one agent, with a fake API server, fake peers, a fake watchdog and a fake clock. */
class NodeAgentTest {

    private static final String RACK = "topology.remedy.dev/rack";

    private final FakeTimeSource time = new FakeTimeSource();
    private final FakeClusterView view = new FakeClusterView();
    private final Map<String, PeerAnswer> answers = new HashMap<>();
    private final List<String> asked = Collections.synchronizedList(new ArrayList<>());
    private final FakeWatchdog watchdog = new FakeWatchdog(time, Duration.ofSeconds(60));
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private NodeAgentSettings settings = NodeAgentSettings.ofDefaults();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private NodeAgent agent() {
        PeerTransport peers = (peer, self, boot) -> {
            asked.add(peer.name());
            return answers.getOrDefault(peer.name(), PeerAnswer.NO_ANSWER);
        };
        return NodeAgent.builder().node("n0").settings(settings).view(view).peers(peers).watchdog(watchdog)
                .time(time).random(new SplittableRandom(7)).bootTime(Instant.EPOCH).executor(executor).build();
    }

    /** n0 plus {@code count} peers n1..n{count}, in the racks given round-robin (none if empty). */
    private void cluster(int count, String... racks) {
        for (int i = 0; i <= count; i++) {
            view.node("n" + i, racks.length == 0 ? Map.of() : Map.of(RACK, racks[i % racks.length]));
        }
    }

    /** Reads the API server once (to learn the peers), then loses it for the threshold of checks. */
    private NodeAgent.Status loseApiServer(NodeAgent agent) {
        agent.check();
        view.down(true);
        NodeAgent.Status s = null;
        for (int i = 0; i < settings.timings().maxApiErrorThreshold(); i++) {
            time.advance(settings.timings().apiCheckInterval());
            s = agent.check();
        }
        return s;
    }

    private void answerAll(int from, int to, PeerAnswer answer) {
        for (int i = from; i <= to; i++) {
            answers.put("n" + i, answer);
        }
    }

    @Test
    @DisplayName("the API server shows no remediation: healthy, the Lease renewed with the watchdog's mode, fed")
    void healthyRenewsLease() {
        cluster(3);
        NodeAgent agent = agent();
        assertThat(agent.check().health()).isEqualTo(NodeAgent.Health.HEALTHY);
        assertThat(view.reports).hasSize(1);
        assertThat(view.reportedMode).isEqualTo(WatchdogMode.ARMED);
        assertThat(agent.feed()).isTrue();
        assertThat(asked).isEmpty();
    }

    @Test
    @DisplayName("a remediation names the node: unhealthy, the watchdog is triggered and never fed again")
    void remediationResets() {
        cluster(3);
        view.remediate("n0");
        NodeAgent agent = agent();
        assertThat(agent.check().health()).isEqualTo(NodeAgent.Health.UNHEALTHY);
        assertThat(watchdog.triggered()).isTrue();
        assertThat(agent.feed()).isFalse();
        assertThat(view.reports).isEmpty();
        time.advance(Duration.ofSeconds(60));
        assertThat(watchdog.fired()).isTrue();
    }

    @Test
    @DisplayName("fewer consecutive failures than the threshold (3): API errors, no peer is asked, still fed")
    void belowThresholdNoPeers() {
        cluster(3);
        NodeAgent agent = agent();
        agent.check();
        view.down(true);
        agent.check();
        NodeAgent.Status s = agent.check();
        assertThat(s.health()).isEqualTo(NodeAgent.Health.API_ERRORS);
        assertThat(s.consecutiveFailures()).isEqualTo(2);
        assertThat(asked).isEmpty();
        assertThat(agent.feed()).isTrue();
    }

    @Test
    @DisplayName("a successful read resets the failure count")
    void successResetsCount() {
        cluster(3);
        NodeAgent agent = agent();
        view.down(true);
        agent.check();
        agent.check();
        view.down(false);
        agent.check();
        view.down(true);
        assertThat(agent.check().consecutiveFailures()).isEqualTo(1);
        assertThat(asked).isEmpty();
    }

    @Test
    @DisplayName("one peer says healthy: healthy, though every other says unhealthy")
    void oneHealthyWins() {
        cluster(20);
        answerAll(1, 20, PeerAnswer.UNHEALTHY);
        answers.put("n7", PeerAnswer.HEALTHY);
        settings = withQuorum(25);
        NodeAgent.Status s = loseApiServer(agent());
        assertThat(s.health()).isEqualTo(NodeAgent.Health.HEALTHY);
        assertThat(s.verdict().orElseThrow().reason()).isEqualTo(PeerVerdict.Reason.PEER_SAYS_HEALTHY);
        assertThat(watchdog.triggered()).isFalse();
    }

    @Test
    @DisplayName("every answering peer says unhealthy: unhealthy, reset")
    void allUnhealthy() {
        cluster(4);
        answerAll(1, 4, PeerAnswer.UNHEALTHY);
        NodeAgent.Status s = loseApiServer(agent());
        assertThat(s.health()).isEqualTo(NodeAgent.Health.UNHEALTHY);
        assertThat(s.verdict().orElseThrow().reason()).isEqualTo(PeerVerdict.Reason.PEERS_SAY_UNHEALTHY);
        assertThat(watchdog.triggered()).isTrue();
    }

    @Test
    @DisplayName("batch size from the cluster size: 20 nodes ask 3 peers first, then 2 at a time, a batch of errors"
            + " asks the next")
    void batchesFromClusterSize() {
        cluster(19);
        answerAll(1, 19, PeerAnswer.NO_ANSWER);
        String healthy = "n5";
        answers.put(healthy, PeerAnswer.HEALTHY);
        NodeAgent.Status s = loseApiServer(agent());
        assertThat(s.health()).isEqualTo(NodeAgent.Health.HEALTHY);
        assertThat(asked.size()).isGreaterThanOrEqualTo(3);
        assertThat((asked.size() - 3) % 2).as("a first batch of 3, then whole batches of min(20/10, 19) = 2").isZero();
        assertThat(asked).contains(healthy).hasSizeLessThanOrEqualTo(19 + 1);
        assertThat(s.verdict().orElseThrow().tally().total()).isEqualTo(asked.size());
    }

    @Test
    @DisplayName("small clusters: min(n/10, n-1) is 0 below 10 nodes; the first batch holds 3 peers (as medik8s asks"
            + " first), the next ones 1 (max(1, ...))")
    void smallClusterFirstBatchOfThree() {
        cluster(4);
        answers.put("n1", PeerAnswer.HEALTHY);
        answers.put("n2", PeerAnswer.HEALTHY);
        answers.put("n3", PeerAnswer.HEALTHY);
        answers.put("n4", PeerAnswer.HEALTHY);
        NodeAgent.Status s = loseApiServer(agent());
        assertThat(s.health()).isEqualTo(NodeAgent.Health.HEALTHY);
        assertThat(asked).as("the first batch holds three peers, and they said healthy").hasSize(3);
    }

    @Test
    @DisplayName("more than half of the peers cannot reach the API server either: the control plane is suspected")
    void controlPlaneSuspected() {
        cluster(4);
        answerAll(1, 3, PeerAnswer.API_ERROR);
        NodeAgent.Status s = loseApiServer(agent());
        assertThat(s.health()).isEqualTo(NodeAgent.Health.HEALTHY);
        assertThat(s.verdict().orElseThrow().reason()).isEqualTo(PeerVerdict.Reason.CONTROL_PLANE_SUSPECTED);
        assertThat(agent().feed()).isTrue();
    }

    @Test
    @DisplayName("no peer answers: isolated, unhealthy, reset")
    void isolated() {
        cluster(4);
        NodeAgent.Status s = loseApiServer(agent());
        assertThat(s.health()).isEqualTo(NodeAgent.Health.UNHEALTHY);
        assertThat(s.verdict().orElseThrow().reason()).isEqualTo(PeerVerdict.Reason.ISOLATED);
        assertThat(asked).hasSize(4);
    }

    @Test
    @DisplayName("the node's rack is cut off as a whole: it refuses to declare itself unhealthy")
    void rackCutOff() {
        cluster(8, "r0", "r1", "r2");
        // n0, n3, n6 in r0; the others outside: silent; n3 and n6 answer API errors
        answers.put("n3", PeerAnswer.API_ERROR);
        answers.put("n6", PeerAnswer.API_ERROR);
        NodeAgent.Status s = loseApiServer(agent());
        assertThat(s.health()).isEqualTo(NodeAgent.Health.HEALTHY);
        assertThat(s.verdict().orElseThrow().reason()).isEqualTo(PeerVerdict.Reason.DOMAIN_CUT_OFF);
        assertThat(watchdog.triggered()).isFalse();
    }

    @Test
    @DisplayName("peers spread over racks: the first batches ask other racks, the node's own rack comes last")
    void spreadAcrossRacks() {
        cluster(8, "r0", "r1", "r2");
        NodeAgent.Status s = loseApiServer(agent());
        assertThat(s.health()).isEqualTo(NodeAgent.Health.UNHEALTHY);
        assertThat(asked.subList(0, 6)).doesNotContain("n3", "n6");
        assertThat(asked.subList(6, 8)).containsExactlyInAnyOrder("n3", "n6");
    }

    @Test
    @DisplayName("an agent that never read the API server knows no peer: it stays up")
    void noPeersKnown() {
        view.down(true);
        NodeAgent agent = agent();
        NodeAgent.Status s = null;
        for (int i = 0; i < 3; i++) {
            s = agent.check();
        }
        assertThat(s.health()).isEqualTo(NodeAgent.Health.HEALTHY);
        assertThat(s.verdict().orElseThrow().reason()).isEqualTo(PeerVerdict.Reason.NO_PEERS);
    }

    @Test
    @DisplayName("a hung check loop: the feeder stops feeding after the liveness bound, and the watchdog fires")
    void hungCheckStopsFeeding() {
        cluster(3);
        NodeAgent agent = agent();
        agent.check();
        Duration third = Duration.ofSeconds(20);
        long fed = 0;
        for (int i = 0; i < 20; i++) {
            time.advance(third);
            if (agent.feed()) {
                fed++;
            }
        }
        assertThat(fed).as("fed while the last progress was within " + agent.livenessBound())
                .isEqualTo(agent.livenessBound().dividedBy(third));
        assertThat(watchdog.fired()).isTrue();
    }

    @Test
    @DisplayName("a peer's question is answered from this node's view; without the API server, API error")
    void answersPeers() {
        cluster(2);
        view.remediate("n1");
        NodeAgent agent = agent();
        assertThat(agent.answer("n1", Instant.EPOCH)).isEqualTo(PeerAnswer.UNHEALTHY);
        assertThat(agent.answer("n2", Instant.EPOCH)).isEqualTo(PeerAnswer.HEALTHY);
        view.down(true);
        assertThat(agent.answer("n2", Instant.EPOCH)).isEqualTo(PeerAnswer.API_ERROR);
    }

    private NodeAgentSettings withQuorum(int quorum) {
        NodeAgentSettings d = NodeAgentSettings.ofDefaults();
        return new NodeAgentSettings(d.timings(), d.safeTime(), quorum, d.peerPort(), d.failureDomainLabels(),
                d.spreadPeersAcrossDomains(), d.watchdogDevice(), d.watchdogFallback(), d.sysrqTrigger(),
                d.watchdogMagicClose());
    }
}
