package dev.remedy.core.nodeagent;

import dev.remedy.core.rules.FailureDomainRule;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.core.rules.PeerSelection;
import dev.remedy.core.rules.PeerVerdict;
import dev.remedy.core.rules.SafeTimeSettings;
import dev.remedy.spi.config.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The healthy side of self-node remediation: whether, and from when, the operator may assume that an unhealthy node
 * reset itself, with the settings the node agents run with ({@link NodeAgentSettings}) and the rules they apply.
 * Pure; thread-safe.
 *
 * <p><b>Accepted only for an armed watchdog.</b> The node's agent must have reported {@link WatchdogMode#ARMED} in its
 * Lease ({@link NodeAgentReport}), within one Lease duration ({@link NodeAgentContract#leaseDuration}) of the moment
 * the node was last seen (its kubelet's heartbeat, or the report itself if later), with the fingerprint of the
 * operator's settings. {@link WatchdogMode#SOFTWARE_REBOOT} is never accepted, whatever the settings' fallback: it
 * needs a live agent and kernel, and a hung one never reboots, so the absence of a reboot cannot be told from a hang.
 * {@link WatchdogMode#NONE} never resets. A report older than that window may be of an agent stopped since (a clean
 * stop disarms the watchdog); other settings mean other timings.
 *
 * <p><b>When.</b> The safe time is {@link SafeTimeSettings#effectiveSafeTime} of the agents' timings with the longer
 * of the reported device timeout and the settings' {@code watchdogTimeout}, for the cluster's size. It counts from the
 * later of two moments: the Lease's renew time (the node was last seen healthy by its agent), and the moment remedy
 * marked the node ({@code markedAt}, the timestamp annotation) plus the time of one round of peers
 * ({@link SafeTimeSettings#peerTime}). The second term exists because, before the mark, a peer that reads the API
 * server sees no remediation and answers healthy: the agent asks again at its next check, and a round begun just
 * before the mark may end healthy. From the mark on, the node takes at most that round, one check and one more round
 * before it stops feeding its watchdog, which the safe time plus one round covers.
 *
 * <p><b>Where the node would have stayed up.</b> The node side stays up when it has no peers, when more than half of
 * its peers answer that they cannot reach the API server ({@link PeerVerdict.Reason#CONTROL_PLANE_SUSPECTED}), and
 * when its failure domain is cut off as a whole ({@link FailureDomainRule}). The operator cannot see which peers the
 * node reached, so it calls the same rules on the answers most favourable to staying up that are consistent with what
 * it sees: a peer whose agent stopped reporting may be alive without the API server ({@link PeerAnswer#API_ERROR}, and
 * asked first), a peer whose agent reports may be out of the node's reach ({@link PeerAnswer#NO_ANSWER}), and for the
 * failure-domain rule every peer outside the domain may be out of reach, silent ones included. A node
 * agent never answers {@code API_ERROR} while it renews its Lease, and after the mark a peer that reads the API server
 * answers unhealthy, so whenever the node side stays up, so does this check: the operator never assumes a reset the
 * node would not do. With these answers the failure-domain rule is storm protection's concentration rule at its
 * strictest: a second node of the node's zone or rack that stopped reporting, with a node outside, is enough to
 * refuse (a rack cut off as a whole looks exactly like that).
 */
public final class ResetAssumption {

    private ResetAssumption() {
    }

    /**
     * A node of the cluster as the operator sees it.
     *
     * @param name   the node's name
     * @param labels its labels (the failure-domain labels are read from them)
     * @param report its agent's last report, if any
     */
    public record SeenNode(String name, Map<String, String> labels, Optional<NodeAgentReport> report) {
        /** Validates and copies. */
        public SeenNode {
            Objects.requireNonNull(name, "name");
            labels = Map.copyOf(labels);
            Objects.requireNonNull(report, "report");
        }
    }

    /**
     * What the operator sees of the node to assume reset.
     *
     * @param node     the node, with its agent's report
     * @param lastSeen when the node was last seen alive by the cluster (its kubelet's heartbeat), if known
     * @param markedAt when remedy marked the node for a reset (the timestamp annotation)
     * @param cluster  every node of the cluster, this one included or not
     */
    public record Situation(SeenNode node, Optional<Instant> lastSeen, Instant markedAt, List<SeenNode> cluster) {
        /** Validates and copies. */
        public Situation {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(lastSeen, "lastSeen");
            Objects.requireNonNull(markedAt, "markedAt");
            cluster = List.copyOf(cluster);
        }

        /** The number of nodes, this one included. */
        public int clusterSize() {
            return (int) cluster.stream().filter(n -> !n.name().equals(node.name())).count() + 1;
        }
    }

    /** Why the operator does not assume a reset. */
    public enum Refusal {
        /** The node has no agent report (no Lease, or one without a usable report). */
        NO_REPORT,
        /** The agent reported {@code software-reboot} or {@code none}. */
        NOT_ARMED,
        /** The report is older than one Lease duration before the node was last seen, or that moment is unknown. */
        STALE_REPORT,
        /** The agent runs with settings of another fingerprint. */
        OTHER_SETTINGS,
        /** The node has no peer: its agent stays up ({@link PeerVerdict.Reason#NO_PEERS}). */
        NO_PEERS,
        /** Too many peers stopped reporting: the node may have suspected the control plane and stayed up. */
        CONTROL_PLANE_SUSPECTED,
        /** The node's failure domain may be cut off as a whole: the node may have stayed up. */
        DOMAIN_CUT_OFF
    }

    /** The decision. */
    public sealed interface Decision permits Assume, Wait, Refuse {
        /** What it rests on, for the history and the agent's answer. */
        String reason();
    }

    /**
     * The node must have reset: assume it.
     *
     * @param since  when the safe time ended
     * @param reason the report and timings it rests on
     */
    public record Assume(Instant since, String reason) implements Decision {
    }

    /**
     * Not yet: the safe time has not ended.
     *
     * @param until  when it ends, unless the agent reports again meanwhile
     * @param reason the report and timings
     */
    public record Wait(Instant until, String reason) implements Decision {
    }

    /**
     * Never on this evidence: escalate, or hold for an administrator.
     *
     * @param refusal why, as a value
     * @param reason  why, in words
     */
    public record Refuse(Refusal refusal, String reason) implements Decision {
    }

    /**
     * Decides at {@code now}.
     *
     * @param settings the settings the operator read from the agents' ConfigMap
     * @param s        what the operator sees
     * @param now      the present
     * @return assume, wait or refuse
     */
    public static Decision decide(NodeAgentSettings settings, Situation s, Instant now) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(s, "situation");
        Objects.requireNonNull(now, "now");
        String node = s.node().name();
        Optional<NodeAgentReport> found = s.node().report();
        if (found.isEmpty()) {
            return new Refuse(Refusal.NO_REPORT, "the node agent of " + node + " has no report (no Lease "
                    + NodeAgentContract.leaseName(node) + " with its annotations): nothing says it can reset the node");
        }
        NodeAgentReport report = found.get();
        if (report.mode() != WatchdogMode.ARMED) {
            return new Refuse(Refusal.NOT_ARMED, "the node agent of " + node + " reported watchdog "
                    + report.mode().code() + ", not armed: " + (report.mode() == WatchdogMode.NONE
                    ? "it never resets its node" : "a software reboot needs a live agent and kernel, and a hung one"
                    + " never reboots") + "; remedy assumes a reset only for an armed watchdog");
        }
        if (!report.runs(settings)) {
            return new Refuse(Refusal.OTHER_SETTINGS, "the node agent of " + node + " runs with settings "
                    + (report.fingerprint().isEmpty() ? "of no fingerprint" : report.fingerprint())
                    + ", not the operator's " + settings.fingerprint() + " (ConfigMap " + NodeAgentContract.CONFIG_MAP
                    + "): its timings may differ; wait until the agents run with the ConfigMap's settings");
        }
        Duration window = NodeAgentContract.leaseDuration(settings);
        if (s.lastSeen().isEmpty()) {
            return new Refuse(Refusal.STALE_REPORT, "when node " + node + " was last seen is unknown (no kubelet"
                    + " heartbeat): its agent's report of " + report.renewed() + " cannot be shown current");
        }
        Instant lastSeen = later(s.lastSeen().get(), report.renewed());
        if (!report.armedWithin(lastSeen, window)) {
            return new Refuse(Refusal.STALE_REPORT, "the node agent of " + node + " last reported at "
                    + report.renewed() + ", more than " + Durations.format(window) + " (its Lease duration) before"
                    + " the node was last seen at " + lastSeen + ": the agent may have stopped, and disarmed its"
                    + " watchdog, before the node failed");
        }
        Optional<Refuse> stayedUp = wouldStayUp(settings, s, now);
        if (stayedUp.isPresent()) {
            return stayedUp.get();
        }
        int size = s.clusterSize();
        Duration safeTime = safeTime(settings, report, size);
        Instant fromRenewal = report.renewed().plus(safeTime);
        Duration round = settings.timings().peerTime(size);
        Instant fromMark = s.markedAt().plus(safeTime).plus(round);
        Instant at = later(fromRenewal, fromMark);
        String why = "watchdog armed (timeout " + Durations.format(report.watchdogTimeout(settings))
                + "), settings " + settings.fingerprint() + ", last renewed " + report.renewed() + ", marked "
                + s.markedAt() + "; safe time " + Durations.format(safeTime) + " for " + size + " nodes, from the"
                + " later of the renewal and the mark plus one round of peers (" + Durations.format(round) + "): " + at;
        return now.isBefore(at) ? new Wait(at, why) : new Assume(at, why);
    }

    /**
     * The safe time for {@code report}'s node: {@link SafeTimeSettings#effectiveSafeTime} of the agents' timings
     * with the longer watchdog timeout ({@link NodeAgentReport#watchdogTimeout}).
     */
    public static Duration safeTime(NodeAgentSettings settings, NodeAgentReport report, int clusterSize) {
        SafeTimeSettings t = settings.timings();
        SafeTimeSettings longer = new SafeTimeSettings(t.apiCheckInterval(), t.apiServerTimeout(),
                t.maxApiErrorThreshold(), t.decisionAllowance(), t.peerDialTimeout(), t.peerRequestTimeout(),
                report.watchdogTimeout(settings), t.rebootDuration());
        return longer.effectiveSafeTime(settings.safeTime(), clusterSize);
    }

    /**
     * The node side's rules on the answers most favourable to staying up that fit what the operator sees; a refusal
     * when they keep the node up. Each rule has its own most favourable answers: for the verdict, every silent peer
     * answers {@code API_ERROR}, first; for the failure-domain rule under one of the node's domains, the silent peers
     * inside it answer {@code API_ERROR} and every other peer is out of reach.
     */
    static Optional<Refuse> wouldStayUp(NodeAgentSettings settings, Situation s, Instant now) {
        Duration window = NodeAgentContract.leaseDuration(settings);
        String node = s.node().name();
        List<SeenNode> peers = s.cluster().stream().filter(p -> !p.name().equals(node)).toList();
        List<SeenNode> silent = peers.stream()
                .filter(p -> p.report().filter(r -> !r.renewed().plus(window).isBefore(now)).isEmpty()).toList();
        List<PeerAnswer> answers = new ArrayList<>();
        peers.forEach(p -> answers.add(silent.contains(p) ? PeerAnswer.API_ERROR : PeerAnswer.NO_ANSWER));
        answers.sort(Comparator.comparing(a -> a != PeerAnswer.API_ERROR));
        PeerVerdict.Result verdict = PeerVerdict.evaluate(PeerSelection.cut(answers), peers.size(),
                settings.peerQuorum());
        if (verdict.outcome() == PeerVerdict.Outcome.HEALTHY) {
            return Optional.of(switch (verdict.reason()) {
                case NO_PEERS -> new Refuse(Refusal.NO_PEERS, "node " + node + " has no peer: its agent never"
                        + " declares itself unhealthy, so it does not reset");
                case CONTROL_PLANE_SUSPECTED -> new Refuse(Refusal.CONTROL_PLANE_SUSPECTED, silent.size() + " of the "
                        + peers.size() + " peers of " + node + " stopped reporting: more than half may have told it"
                        + " they cannot reach the API server, and then its agent suspects the control plane and stays"
                        + " up");
                case PEER_SAYS_HEALTHY, PEERS_SAY_UNHEALTHY, NO_PEER_DISAGREES, NO_PEER_VOUCHES, ISOLATED,
                        NEED_MORE_ANSWERS, DOMAIN_CUT_OFF -> throw new IllegalStateException("answers of errors and"
                        + " silence only gave a healthy verdict for " + verdict.reason()
                        + "; the rules changed: decide what the operator does");
            });
        }
        for (Map.Entry<String, String> domain : settings.domains(s.node().labels()).entrySet()) {
            List<FailureDomainRule.Answer> inDomain = new ArrayList<>();
            for (SeenNode p : peers) {
                Map<String, String> domains = settings.domains(p.labels());
                boolean inside = domain.getValue().equals(domains.get(domain.getKey()));
                inDomain.add(new FailureDomainRule.Answer(p.name(), domains, inside && silent.contains(p)
                        ? PeerAnswer.API_ERROR : PeerAnswer.NO_ANSWER));
            }
            Optional<FailureDomainRule.CutOff> cut = FailureDomainRule.cutOff(Map.of(domain.getKey(),
                    domain.getValue()), inDomain);
            if (cut.isPresent()) {
                return Optional.of(new Refuse(Refusal.DOMAIN_CUT_OFF, "the failure domain " + cut.get().label() + "="
                        + cut.get().value() + " of " + node + " may be cut off as a whole: "
                        + cut.get().insideApiErrors() + " other node(s) in it stopped reporting too, and its agent"
                        + " refuses to reset while its domain is cut off; check the domain's uplink, or fence the node"
                        + " with a power agent"));
            }
        }
        return Optional.empty();
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
