package dev.remedy.core.policy;

import dev.remedy.core.storm.NodeView;
import dev.remedy.core.storm.PoolTally;
import dev.remedy.core.time.Deadlines;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The incremental controller as it was before pool-wide work left {@link IncrementalPolicyController#advance}: every
 * advance re-assesses every remediation in progress. Kept verbatim (but for tracking the active nodes itself, in
 * order of name, and for waking nodes due at the same time in order of name: orders that were a hash map's and a
 * heap's, which the controller now makes explicit) as the oracle of {@link IncrementalEquivalenceTest}.
 */
final class LegacyIncrementalPolicyController {

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
    /** Starts held back, asked again at their time. */
    private final PriorityQueue<Wake> held = new PriorityQueue<>(Comparator.comparing(Wake::at));
    private final java.util.Map<String, Instant> heldUntil = new java.util.HashMap<>();
    /**
     * The nodes being remediated, as the removed {@code Remediations.activeNodes()} listed them but in order of name:
     * that listing's order was its hash map's, which the controller now makes explicit.
     */
    private final Set<String> active = new java.util.TreeSet<>();

    /** A controller for {@code policies}, running remedies with {@code runner}, admitting through {@code gate}. */
    LegacyIncrementalPolicyController(List<Policy> policies, RemedyRunner runner, AdmissionGate gate,
                                       Consumer<PolicyDecision> listener) {
        this.remediations = new Remediations(policies, runner, gate, listener);
        this.policies = remediations.policies();
        this.tallies = this.policies.stream().map(p -> new PoolTally()).toList();
    }

    /**
     * {@code node} changed (or was seen for the first time). Updates its pools in O(log n), and decides for this node
     * only: start, follow, hold.
     */
    List<PolicyDecision> observe(NodeStatus node, Instant now) {
        List<PolicyDecision> decisions = new ArrayList<>();
        fleet.put(node.name(), node);
        reassess(node, now, decisions);
        return remediations.publish(decisions);
    }

    /** {@code node} is gone from the cluster; it leaves every pool. */
    void forget(String node) {
        fleet.remove(node);
        tallies.forEach(t -> t.remove(node));
        episodes.remove(node);
        remediations.clearHold(node);
    }

    /**
     * Time passed. Nodes whose condition has now lasted its duration are looked at again, and every remediation in
     * progress checks its timeout and healthy delay. Cost: the nodes that came due plus the remediations in progress.
     */
    List<PolicyDecision> advance(Instant now) {
        List<PolicyDecision> decisions = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (!wakes.isEmpty() && !wakes.peek().at().isAfter(now)) {
            String name = wakes.poll().node();
            NodeStatus status = fleet.get(name);
            if (status != null && seen.add(name)) {
                reassess(status, now, decisions);
            }
        }
        java.util.TreeSet<String> followedNow = new java.util.TreeSet<>(active);
        while (!held.isEmpty() && !held.peek().at().isAfter(now)) {
            Wake wake = held.poll();
            if (wake.at().equals(heldUntil.get(wake.node()))) { // only the latest hold of a node counts
                heldUntil.remove(wake.node());
                followedNow.add(wake.node());
            }
        }
        for (String name : followedNow) {
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
    Optional<String> activeRemedy(String node) {
        return remediations.activeRemedy(node);
    }

    /** How many nodes are being remediated. */
    int remediating() {
        return remediations.count();
    }

    /** Updates the pools of {@code node} and decides for it. */
    private void reassess(NodeStatus node, Instant now, List<PolicyDecision> decisions) {
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
            boolean sick = Conditions.unhealthyAt(policy, Conditions.thresholds(policy, now), node)
                    || episode != null && !episode.isAfter(Deadlines.minus(now, Conditions.longestDuration(policy)));
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
            } else {
                // the one change since: a held start is asked again HELD_RECHECK later, in name order with the
                // remediations followed
                Instant again = Deadlines.plus(now, IncrementalPolicyController.HELD_RECHECK);
                heldUntil.put(node.name(), again);
                held.add(new Wake(again, node.name()));
            }
        } else {
            remediations.follow(node, tallies.get(policies.indexOf(remediating.get())).view(), now, decisions);
            if (!remediations.isActive(node.name())) {
                refresh(node);
            }
        }
        if (remediations.isActive(node.name())) {
            active.add(node.name());
        } else {
            active.remove(node.name());
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
