package dev.remedy.core.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.rules.FailureDomainRule;
import dev.remedy.core.rules.Peer;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.core.rules.PeerSelection;
import dev.remedy.core.rules.PeerTally;
import dev.remedy.core.rules.PeerVerdict;
import dev.remedy.core.rules.SafeTimeSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The two sides agree: over generated settings and partitions, the operator never assumes the reset of a node whose
 * agent, applying the node-side rules to the answers it really gets, stays up.
 */
class ResetAssumptionPropertiesTest {

    private static final String ZONE = NodeAgentSettings.ZONE_LABEL;
    private static final String RACK = NodeAgentSettings.RACK_LABEL;
    private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant NOW = T.plus(Duration.ofDays(2));

    /** One node of a generated cluster. */
    private record Machine(String name, Map<String, String> labels, boolean alive, boolean api) {
    }

    @Property(tries = 2000)
    @Label("no configuration and no partition lets the operator assume a reset the node side would not do")
    void operatorAssumesOnlyWhatTheNodeDoes(@ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int size) {
        Random random = new Random(seed);
        NodeAgentSettings settings = settings(random);
        List<Machine> machines = new ArrayList<>();
        Set<String> cutRacks = new HashSet<>();
        for (int r = 1; r <= 4; r++) {
            if (random.nextInt(4) == 0) {
                cutRacks.add("r" + r);
            }
        }
        for (int i = 0; i < size; i++) {
            Map<String, String> labels = new HashMap<>();
            if (random.nextInt(10) > 0) {
                labels.put(ZONE, "z" + (1 + random.nextInt(2)));
            }
            if (random.nextInt(10) > 0) {
                labels.put(RACK, "r" + (1 + random.nextInt(4)));
            }
            boolean inCutRack = cutRacks.contains(labels.get(RACK));
            boolean self = i == 0;
            machines.add(new Machine("n" + i, labels, self || random.nextInt(7) > 0,
                    !self && !inCutRack && random.nextInt(10) >= 3));
        }
        Set<String> cutPairs = new HashSet<>();
        for (int i = 1; i < size; i++) {
            if (random.nextInt(10) == 0) {
                cutPairs.add(machines.get(i).name());
            }
        }
        Machine node = machines.get(0);

        PeerVerdict.Result nodeSide = nodeSide(settings, machines, cutRacks, cutPairs, random.nextLong());
        ResetAssumption.Decision operator = ResetAssumption.decide(settings, operatorView(settings, machines, random),
                NOW);

        String refusal = operator instanceof ResetAssumption.Refuse r ? r.refusal().name() : "assumed";
        Statistics.label("operator").collect(refusal);
        Statistics.label("node side").collect(nodeSide.reason().name());
        Statistics.label("operator").coverage(c -> {
            c.check("assumed").count(n -> n > 0);
            c.check(ResetAssumption.Refusal.DOMAIN_CUT_OFF.name()).count(n -> n > 0);
            c.check(ResetAssumption.Refusal.CONTROL_PLANE_SUSPECTED.name()).count(n -> n > 0);
        });
        if (operator instanceof ResetAssumption.Assume) {
            assertThat(nodeSide.outcome()).as("node %s stays up (%s) but the operator assumes it reset", node.name(),
                    nodeSide.reason()).isEqualTo(PeerVerdict.Outcome.UNHEALTHY);
        }
        assertThat(operator).as("long after the safe time the operator never waits")
                .isNotInstanceOf(ResetAssumption.Wait.class);
    }

    /** The agent of n0, which lost the API server, asking its peers through the partition as NodeAgent does. */
    private static PeerVerdict.Result nodeSide(NodeAgentSettings settings, List<Machine> machines,
            Set<String> cutRacks, Set<String> cutPairs, long seed) {
        Machine self = machines.get(0);
        Map<String, Machine> byName = new HashMap<>();
        List<Peer> cluster = new ArrayList<>();
        for (Machine m : machines) {
            byName.put(m.name(), m);
            cluster.add(new Peer(m.name(), settings.failureDomain(m.labels())));
        }
        List<List<Peer>> batches = PeerSelection.batches(new Peer(self.name(), settings.failureDomain(self.labels())),
                cluster, new Random(seed), settings.spreadPeersAcrossDomains());
        int peerCount = batches.stream().mapToInt(List::size).sum();
        PeerTally tally = PeerTally.EMPTY;
        List<FailureDomainRule.Answer> answers = new ArrayList<>();
        PeerVerdict.Result verdict = PeerVerdict.decide(tally, peerCount, settings.peerQuorum());
        for (List<Peer> batch : batches) {
            if (verdict.outcome() != PeerVerdict.Outcome.ASK_NEXT_BATCH) {
                break;
            }
            for (Peer p : batch) {
                Machine m = byName.get(p.name());
                PeerAnswer answer = !m.alive() || cutPairs.contains(m.name()) || cutOff(self, m, cutRacks)
                        ? PeerAnswer.NO_ANSWER : !m.api() ? PeerAnswer.API_ERROR : PeerAnswer.UNHEALTHY;
                answers.add(new FailureDomainRule.Answer(m.name(), settings.domains(m.labels()), answer));
                tally = tally.plus(answer);
            }
            verdict = PeerVerdict.decide(tally, peerCount, settings.peerQuorum());
        }
        return FailureDomainRule.apply(verdict, settings.domains(self.labels()), answers);
    }

    /** A cut rack reaches only itself. */
    private static boolean cutOff(Machine a, Machine b, Set<String> cutRacks) {
        String ra = a.labels().get(RACK);
        String rb = b.labels().get(RACK);
        boolean sameRack = ra != null && ra.equals(rb);
        return !sameRack && (cutRacks.contains(ra) || cutRacks.contains(rb));
    }

    /** What the operator sees: a node reports while it is alive and reads the API server. */
    private static ResetAssumption.Situation operatorView(NodeAgentSettings settings, List<Machine> machines,
            Random random) {
        List<ResetAssumption.SeenNode> seen = new ArrayList<>();
        for (Machine m : machines.subList(1, machines.size())) {
            boolean reports = m.alive() && m.api();
            Optional<NodeAgentReport> report = !reports && random.nextInt(5) == 0 ? Optional.empty()
                    : Optional.of(new NodeAgentReport(m.name(), WatchdogMode.ARMED, Optional.empty(),
                    settings.fingerprint(), reports ? NOW : T.minus(Duration.ofDays(1))));
            seen.add(new ResetAssumption.SeenNode(m.name(), m.labels(), report));
        }
        Machine self = machines.get(0);
        ResetAssumption.SeenNode node = new ResetAssumption.SeenNode(self.name(), self.labels(), Optional.of(
                new NodeAgentReport(self.name(), WatchdogMode.ARMED, Optional.empty(), settings.fingerprint(), T)));
        seen.add(node);
        return new ResetAssumption.Situation(node, Optional.of(T), T, seen);
    }

    private static NodeAgentSettings settings(Random random) {
        SafeTimeSettings timings = new SafeTimeSettings(seconds(random, 1, 60), seconds(random, 1, 10),
                1 + random.nextInt(5), seconds(random, 0, 60), seconds(random, 1, 10), seconds(random, 1, 10),
                seconds(random, 1, 120), seconds(random, 0, 60));
        List<List<String>> labelChoices = List.of(List.of(ZONE, RACK), List.of(RACK), List.of(ZONE), List.of(),
                List.of(RACK, ZONE));
        return new NodeAgentSettings(timings, seconds(random, 0, 400), 1 + random.nextInt(3),
                NodeAgentSettings.DEFAULT_PEER_PORT, labelChoices.get(random.nextInt(labelChoices.size())),
                random.nextBoolean(), Path.of("/dev/watchdog"), WatchdogFallback.SOFTWARE_REBOOT,
                Path.of("/proc/sysrq-trigger"), true);
    }

    private static Duration seconds(Random random, int min, int max) {
        return Duration.ofSeconds(min + random.nextInt(max - min + 1));
    }
}
