package dev.remedy.core.policy;

import dev.remedy.core.storm.NodeView;
import dev.remedy.core.storm.PoolTally;
import dev.remedy.core.time.Deadlines;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Applies remedy policies incrementally, with the rules of {@link PolicyController}: {@link #observe} takes the node
 * that changed (or is seen for the first time), {@link #advance} the passing of time, and {@link #forget} a node
 * that left. The cost of a call is the changed node plus what is due, not the fleet, so fleets of 100,000 nodes can
 * be evaluated on every observation. It has no full pass: a controller is one mode or the other.
 *
 * <p>Pool-wide quantities (unhealthy, remediating, disconnected, per failure domain) are counters kept node by node;
 * time is a queue of deadlines (a condition that reaches its duration, a healthy delay that ends, a remedy that
 * times out). What time alone does not tell is asked at every {@link #advance}: storm protection, for escalations it
 * held back, and the runner, for the progress of every running remedy — unless the controller was made
 * {@link #reportingProgress reporting progress}, where the caller tells it ({@link #progressed}) and an advance costs
 * only what is due, whatever the number of remediations in progress.
 *
 * <p>Not thread-safe: call it from one thread (a reconcile loop). Time is passed in.
 */
public final class IncrementalPolicyController {

    private final Remediations remediations;
    private final List<Policy> policies;
    /** Since when each node has shown some unhealthy condition without a break (episodes survive flips). */
    private final Map<String, Instant> episodes = new HashMap<>();
    /** The latest status of every node observed. */
    private final Map<String, NodeStatus> fleet = new HashMap<>();
    /** Each policy's pool, kept up to date node by node. */
    private final List<PoolTally> tallies;
    /** When a node showing a condition becomes unhealthy by its duration; at the same time, by node name. */
    private final PriorityQueue<Wake> wakes = new PriorityQueue<>(Comparator.comparing(Wake::at)
            .thenComparing(Wake::node));
    /** Whether remedy progress is told ({@link #progressed}) rather than polled at every advance. */
    private final boolean reported;
    /** The remediations followed at every advance ({@link Remediations#needsFollowing}), by node name. */
    private final Set<String> followed = new TreeSet<>();
    /** When remediations change by time alone ({@link Remediations#deadline}); stale entries are skipped. */
    private final PriorityQueue<Wake> deadlines = new PriorityQueue<>(Comparator.comparing(Wake::at));
    /** The nodes whose remedy's progress the caller said may have changed ({@link #progressed}). */
    private final Set<String> progressed = new LinkedHashSet<>();
    /**
     * How long after storm protection (or a pause) held a start back it is asked again, if the node does not change
     * before: the cost of a storm with thousands of held nodes is spread over this time.
     */
    public static final Duration HELD_RECHECK = Duration.ofSeconds(10);

    /** The deadline queued last for each node in {@link #deadlines}. */
    private final Map<String, Instant> queued = new HashMap<>();

    /** A controller for {@code policies}, running remedies with {@code runner}, admitting through {@code gate}. */
    public IncrementalPolicyController(List<Policy> policies, RemedyRunner runner, AdmissionGate gate,
                                       Consumer<PolicyDecision> listener) {
        this(policies, runner, gate, listener, false);
    }

    private IncrementalPolicyController(List<Policy> policies, RemedyRunner runner, AdmissionGate gate,
                                        Consumer<PolicyDecision> listener, boolean reported) {
        this.remediations = new Remediations(policies, runner, gate, listener);
        this.policies = remediations.policies();
        this.tallies = this.policies.stream().map(p -> new PoolTally()).toList();
        this.reported = reported;
    }

    /**
     * A controller that does not poll {@code runner} for the progress of running remedies at every {@link #advance}:
     * the caller promises to call {@link #progressed} whenever {@link RemedyRunner#progress} of a node's remedy may
     * have changed (a fence flow or an external remediation changed state). The next advance then decides what a
     * polling controller would have decided at that advance; it costs what is due, not the remediations in progress.
     */
    public static IncrementalPolicyController reportingProgress(List<Policy> policies, RemedyRunner runner,
                                                                AdmissionGate gate,
                                                                Consumer<PolicyDecision> listener) {
        return new IncrementalPolicyController(policies, runner, gate, listener, true);
    }

    /**
     * {@code node} changed (or was seen for the first time). Updates its pools in O(log n), and decides for this node
     * only: start, follow, hold.
     */
    public List<PolicyDecision> observe(NodeStatus node, Instant now) {
        List<PolicyDecision> decisions = new ArrayList<>();
        fleet.put(node.name(), node);
        reassess(node, now, decisions);
        return remediations.publish(decisions);
    }

    /**
     * Many nodes seen at once (an informer's first list, a burst of changes): every one enters its pools before any
     * is decided, so that storm protection counts the whole fleet, and not only the nodes seen so far, when the
     * first sick one is decided; then each is decided as {@link #observe} decides.
     */
    public List<PolicyDecision> observeAll(Collection<NodeStatus> nodes, Instant now) {
        for (NodeStatus node : nodes) {
            fleet.put(node.name(), node);
            for (int p = 0; p < policies.size(); p++) {
                Policy policy = policies.get(p);
                if (policy.covers(node)) {
                    tallies.get(p).put(remediations.view(policy, node,
                            sick(policy, node, Conditions.earliestShown(policy, node), now)));
                } else {
                    tallies.get(p).remove(node.name());
                }
            }
        }
        List<PolicyDecision> decisions = new ArrayList<>();
        for (NodeStatus node : nodes) {
            reassess(node, now, decisions);
        }
        return remediations.publish(decisions);
    }

    /** {@code node} is gone from the cluster; it leaves every pool. */
    public void forget(String node) {
        fleet.remove(node);
        tallies.forEach(t -> t.remove(node));
        episodes.remove(node);
        remediations.clearHold(node);
        followed.remove(node);
        queued.remove(node);
    }

    /**
     * The progress of {@code node}'s remedy may have changed (for a controller {@link #reportingProgress reporting
     * progress}; harmless otherwise): the next {@link #advance} follows its remediation, as a polling controller
     * would, and escalates if the remedy failed. O(1).
     */
    public void progressed(String node) {
        progressed.add(node);
    }

    /**
     * Time passed. Nodes whose condition has now lasted its duration are looked at again, and so are the
     * remediations whose healthy delay ended or whose remedy timed out, those whose escalation storm protection held
     * back, and (unless {@link #reportingProgress reporting progress}) those whose remedy is running, to poll it;
     * remediations in order of node name. Cost: what came due plus those followed; the pools are counters, never
     * recounted.
     */
    public List<PolicyDecision> advance(Instant now) {
        List<PolicyDecision> decisions = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (!wakes.isEmpty() && !wakes.peek().at().isAfter(now)) {
            String name = wakes.poll().node();
            NodeStatus status = fleet.get(name);
            if (status != null && seen.add(name)) {
                reassess(status, now, decisions);
            }
        }
        TreeSet<String> due = new TreeSet<>();
        while (!deadlines.isEmpty() && !deadlines.peek().at().isAfter(now)) {
            Wake wake = deadlines.poll();
            if (wake.at().equals(queued.get(wake.node()))) {
                queued.remove(wake.node());
                due.add(wake.node());
            }
        }
        for (String name : progressed) {
            if (remediations.running(name)) {
                due.add(name);
            }
        }
        progressed.clear();
        // In order of node name (followed is sorted too): within one advance, the order can matter to storm
        // protection (a node recovering before another's fence is asked for).
        String[] every = followed.toArray(new String[0]);
        Iterator<String> dueNames = due.iterator();
        String nextDue = dueNames.hasNext() ? dueNames.next() : null;
        int i = 0;
        while (i < every.length || nextDue != null) {
            String name;
            if (nextDue == null || i < every.length && every[i].compareTo(nextDue) < 0) {
                name = every[i++];
            } else {
                name = nextDue;
                nextDue = dueNames.hasNext() ? dueNames.next() : null;
            }
            NodeStatus status = fleet.get(name);
            if (status != null && seen.add(name)) {
                reassess(status, now, decisions);
            }
        }
        for (int p = 0; p < policies.size(); p++) {
            remediations.gate().observe(policies.get(p), tallies.get(p).view(), now);
        }
        return remediations.publish(decisions);
    }

    /** The node's active remediation: the name of its current remedy, if any. */
    public Optional<String> activeRemedy(String node) {
        return remediations.activeRemedy(node);
    }

    /** How many nodes are being remediated. */
    public int remediating() {
        return remediations.count();
    }

    /** Updates the pools of {@code node} and decides for it. */
    private void reassess(NodeStatus node, Instant now, List<PolicyDecision> decisions) {
        boolean wasActive = remediations.isActive(node.name());
        int candidate = -1;
        Instant wake = null;
        Instant earliest = null;
        for (int p = 0; p < policies.size(); p++) {
            Policy policy = policies.get(p);
            if (!policy.covers(node)) {
                tallies.get(p).remove(node.name());
                continue;
            }
            Instant shown = Conditions.earliestShown(policy, node);
            if (shown != null && (earliest == null || shown.isBefore(earliest))) {
                earliest = shown;
            }
            Instant episode = shown == null ? null : Conditions.min(episodes.get(node.name()), shown);
            boolean sick = sick(policy, node, shown, now);
            tallies.get(p).put(remediations.view(policy, node, sick));
            if (sick && candidate < 0) {
                candidate = p;
            } else if (!sick && episode != null) {
                wake = Conditions.min(wake, Conditions.min(Conditions.nextUnhealthy(policy, node),
                        Deadlines.plus(episode, Conditions.longestDuration(policy))));
            }
        }
        if (earliest == null) {
            episodes.remove(node.name());
        } else {
            episodes.put(node.name(), Conditions.min(episodes.get(node.name()), earliest));
        }
        if (wake != null) {
            wakes.add(new Wake(wake, node.name()));
        }
        Optional<Policy> remediating = remediations.policyOf(node.name());
        if (remediating.isEmpty()) {
            if (candidate >= 0 && remediations.consider(policies.get(candidate), node,
                    tallies.get(candidate).view(), now, decisions)) {
                refresh(node);
            } else if (candidate < 0) {
                remediations.clearHold(node.name());
                queued.remove(node.name());
            } else {
                // held back (storm protection, a pause): asked again HELD_RECHECK later, and whenever the node
                // changes; a node that stays down never changes, and asking every held node at every advance
                // would cost what a full pass costs in a storm
                Instant again = Deadlines.plus(now, HELD_RECHECK);
                queued.put(node.name(), again);
                deadlines.add(new Wake(again, node.name()));
            }
        } else {
            remediations.follow(node, tallies.get(policies.indexOf(remediating.get())).view(), now, decisions);
            if (!remediations.isActive(node.name())) {
                refresh(node);
            }
        }
        if (wasActive || remediations.isActive(node.name())) {
            schedule(node.name());
        }
    }

    /**
     * Whether {@code node} is unhealthy under {@code policy} now: a condition past its duration, or an episode
     * (conditions shown since {@code shown} or earlier, flips included) longer than the policy's longest duration.
     */
    private boolean sick(Policy policy, NodeStatus node, Instant shown, Instant now) {
        Instant episode = shown == null ? null : Conditions.min(episodes.get(node.name()), shown);
        return Conditions.unhealthyAt(policy, Conditions.thresholds(policy, now), node)
                || episode != null && !episode.isAfter(Deadlines.minus(now, Conditions.longestDuration(policy)));
    }

    /**
     * Notes how the remediation of {@code node} (if any) is to be followed: at every advance, or at its deadline.
     * A remediation neither followed nor due (exhausted and unhealthy; or running, when progress is reported) has
     * nothing that time alone changes: looking at it again would decide nothing. Called for a node that was or is
     * being remediated (the others are in neither {@link #followed} nor {@link #queued}).
     */
    private void schedule(String node) {
        if (remediations.needsFollowing(node, !reported)) {
            followed.add(node);
        } else {
            followed.remove(node);
        }
        Instant deadline = remediations.deadline(node, reported);
        if (deadline == null) {
            queued.remove(node);
        } else if (!deadline.equals(queued.put(node, deadline))) {
            deadlines.add(new Wake(deadline, node));
        }
    }

    /** Updates the remediating flag of {@code node} in every pool it is in. */
    private void refresh(NodeStatus node) {
        boolean active = remediations.isActive(node.name());
        for (PoolTally tally : tallies) {
            tally.node(node.name()).ifPresent(v -> tally.put(new NodeView(v.name(), v.controlPlane(), v.unhealthy(),
                    active, v.disconnected(), v.failureDomain(), v.priority())));
        }
    }

    /** A node to look at again. */
    private record Wake(Instant at, String node) {
    }
}
