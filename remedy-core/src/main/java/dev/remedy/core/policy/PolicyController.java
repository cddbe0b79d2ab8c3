package dev.remedy.core.policy;

import dev.remedy.core.policy.PolicyDecision.Kind;
import dev.remedy.core.storm.NodeView;
import dev.remedy.core.storm.PoolTally;
import dev.remedy.core.storm.PoolView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Applies remedy policies to observed nodes: starts the first remedy of a node that has been unhealthy long
 * enough (if storm protection admits it), escalates when a remedy fails (at once) or times out (cancelled first),
 * and ends the remediation once the node has stayed healthy for the policy's healthy delay.
 *
 * <p>A node counts as healthy only when it shows none of the policy's unhealthy conditions at all; the duration
 * matters only for starting. So a node that flips between two unhealthy conditions during a reboot
 * ({@code Ready=Unknown} → {@code Ready=False}) keeps its remediation and its remedy's clock: it neither restarts
 * nor escalates early. A node is in the pool of every policy that covers it (for counting), and is remediated by
 * the first policy, in order, under which it is unhealthy; it has one remediation at a time.
 *
 * <p>Two ways to drive it, not to be mixed on one controller: {@link #evaluate} takes every node at each call (a
 * reconcile pass, O(n)); {@link #observe} takes the node that changed and {@link #advance} the passing of time
 * (incremental: the cost is the changed node plus the remediations in progress, for fleets of 100,000 nodes).
 *
 * <p>Not thread-safe: call it from one thread (a reconcile loop). Time is passed in.
 */
public final class PolicyController {

    /** Label giving a node's fence-race priority: the node with the highest wins a race (fenced last). */
    public static final String PRIORITY_LABEL = "remedy.dev/fence-priority";

    private final List<Policy> policies;
    private final RemedyRunner runner;
    private final AdmissionGate gate;
    private final Consumer<PolicyDecision> listener;
    private final Map<String, Remediation> active = new HashMap<>();
    private final Map<String, String> lastHeld = new HashMap<>();
    /** Since when each node has shown some unhealthy condition without a break (episodes survive flips). */
    private Map<String, Instant> episodes = new HashMap<>();
    /** The episodes seen by the running evaluation; replaces {@link #episodes} at its end. */
    private Map<String, Instant> nextEpisodes = new HashMap<>();
    /** Per-policy working lists, reused by every evaluation (a fleet of 100,000 nodes would churn megabytes). */
    private final List<Pool> pools;
    /** Incremental mode: the latest status of every node observed. */
    private final Map<String, NodeStatus> fleet = new HashMap<>();
    /** Incremental mode: each policy's pool, kept up to date node by node. */
    private final List<PoolTally> tallies;
    /** Incremental mode: when a node showing a condition becomes unhealthy by its duration. */
    private final PriorityQueue<Wake> wakes = new PriorityQueue<>(Comparator.comparing(Wake::at));

    /** A controller for {@code policies}, running remedies with {@code runner}, admitting through {@code gate}. */
    public PolicyController(List<Policy> policies, RemedyRunner runner, AdmissionGate gate,
                            Consumer<PolicyDecision> listener) {
        this.policies = List.copyOf(policies);
        this.runner = Objects.requireNonNull(runner, "runner");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.pools = this.policies.stream().map(Pool::new).toList();
        this.tallies = this.policies.stream().map(p -> new PoolTally()).toList();
    }

    /**
     * Incremental evaluation: {@code node} changed (or was seen for the first time). Updates its pools in
     * O(log n), and decides for this node only: start, follow, hold. Cost does not grow with the fleet, so a
     * fleet of 100,000 nodes can be evaluated on every observation. Pair with {@link #advance} for the passing
     * of time; do not mix with {@link #evaluate} on one controller.
     */
    public List<PolicyDecision> observe(NodeStatus node, Instant now) {
        List<PolicyDecision> decisions = new ArrayList<>();
        fleet.put(node.name(), node);
        reassess(node, now, decisions);
        decisions.forEach(listener);
        return decisions;
    }

    /** Incremental evaluation: {@code node} is gone from the cluster; it leaves every pool. */
    public void forget(String node) {
        fleet.remove(node);
        tallies.forEach(t -> t.remove(node));
        episodes.remove(node);
        lastHeld.remove(node);
    }

    /**
     * Incremental evaluation: time passed. Nodes whose condition has now lasted its duration are looked at again,
     * and every remediation in progress checks its timeout and healthy delay. Cost: the nodes that came due plus
     * the remediations in progress.
     */
    public List<PolicyDecision> advance(Instant now) {
        List<PolicyDecision> decisions = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (!wakes.isEmpty() && !wakes.peek().at().isAfter(now)) {
            String name = wakes.poll().node();
            NodeStatus status = fleet.get(name);
            if (status != null && seen.add(name)) {
                reassess(status, now, decisions);
            }
        }
        for (String name : List.copyOf(active.keySet())) {
            NodeStatus status = fleet.get(name);
            if (status != null && seen.add(name)) {
                reassess(status, now, decisions);
            }
        }
        for (int p = 0; p < policies.size(); p++) {
            gate.observe(policies.get(p), tallies.get(p).view(), now);
        }
        decisions.forEach(listener);
        return decisions;
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
            Instant shown = earliestShown(policy, node);
            if (shown != null && (earliest == null || shown.isBefore(earliest))) {
                earliest = shown;
            }
            Instant episode = shown == null ? null : min(episodes.get(node.name()), shown);
            boolean sick = unhealthyAt(policy, thresholds(policy, now), node)
                    || episode != null && !episode.isAfter(now.minus(longestDuration(policy)));
            tallies.get(p).put(view(policy, node, sick));
            if (sick && candidate < 0) {
                candidate = p;
            } else if (!sick && episode != null) {
                wake = min(wake, min(nextUnhealthy(policy, node), episode.plus(longestDuration(policy))));
            }
        }
        if (earliest == null) {
            episodes.remove(node.name());
        } else {
            episodes.put(node.name(), min(episodes.get(node.name()), earliest));
        }
        if (wake != null) {
            wakes.add(new Wake(wake, node.name()));
        }
        Remediation remediation = active.get(node.name());
        if (remediation == null) {
            if (candidate >= 0 && consider(policies.get(candidate), node, tallies.get(candidate).view(), now,
                    decisions)) {
                refresh(node);
            } else if (candidate < 0) {
                lastHeld.remove(node.name());
            }
        } else {
            int p = policies.indexOf(remediation.policy());
            follow(remediation, node, tallies.get(p).view(), now, decisions);
            if (!active.containsKey(node.name())) {
                refresh(node);
            }
        }
    }

    /** Updates the remediating flag of {@code node} in every pool it is in. */
    private void refresh(NodeStatus node) {
        for (PoolTally tally : tallies) {
            tally.node(node.name()).ifPresent(v -> tally.put(new NodeView(v.name(), v.controlPlane(), v.unhealthy(),
                    active.containsKey(node.name()), v.disconnected(), v.failureDomain(), v.priority())));
        }
    }

    private NodeView view(Policy policy, NodeStatus node, boolean sick) {
        return node.view(policy.storm().failureDomainLabel(), sick, active.containsKey(node.name()),
                disconnected(node), policy.storm().priorityDelay().isZero() ? 0 : priority(node));
    }

    /** The earliest last-transition of the policy's conditions that {@code node} shows, or null. */
    private static Instant earliestShown(Policy policy, NodeStatus node) {
        Instant earliest = null;
        for (UnhealthyCondition condition : policy.conditions()) {
            NodeCondition shown = node.find(condition.type());
            if (shown != null && shown.status().equals(condition.status())) {
                earliest = min(earliest, shown.lastTransition());
            }
        }
        return earliest;
    }

    /** When {@code node} becomes unhealthy by the first of its shown conditions to last its duration, or null. */
    private static Instant nextUnhealthy(Policy policy, NodeStatus node) {
        Instant next = null;
        for (UnhealthyCondition condition : policy.conditions()) {
            NodeCondition shown = node.find(condition.type());
            if (shown != null && shown.status().equals(condition.status())) {
                next = min(next, shown.lastTransition().plus(condition.duration()));
            }
        }
        return next;
    }

    private static Instant min(Instant a, Instant b) {
        return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
    }

    /** A node to look at again. */
    private record Wake(Instant at, String node) {
    }

    /**
     * One evaluation of every policy over {@code nodes} (distinct names); returns the decisions made (also sent to the
     * listener).
     */
    public List<PolicyDecision> evaluate(Collection<NodeStatus> nodes, Instant now) {
        List<PolicyDecision> decisions = new ArrayList<>();
        for (Pool pool : pools) {
            pool.reset(now, nodes.size());
        }
        nextEpisodes.clear();
        // One pass over the nodes: each node object is read once, which matters at 100,000 nodes.
        for (NodeStatus node : nodes) {
            Remediation remediation = active.get(node.name());
            for (Pool pool : pools) {
                if (pool.policy.covers(node)) {
                    boolean sick = unhealthyAt(pool.policy, pool.thresholds, node)
                            || flippingSince(pool.policy, node, pool.longest);
                    pool.add(node, sick, remediation, node.view(pool.domainLabel, sick, remediation != null,
                            disconnected(node), pool.usesPriority ? priority(node) : 0));
                }
            }
        }
        Map<String, Instant> finished = episodes;
        episodes = nextEpisodes;
        nextEpisodes = finished;
        for (Pool pool : pools) {
            PoolView view = PoolView.ofDistinct(List.copyOf(pool.views));
            gate.observe(pool.policy, view, now);
            for (int i = 0; i < pool.nodes.size(); i++) {
                Remediation remediation = pool.remediations.get(i);
                if (remediation == null) {
                    NodeStatus node = pool.nodes.get(i);
                    if (pool.sick.get(i) && !active.containsKey(node.name())
                            && consider(pool.policy, node, view, now, decisions)) {
                        view = view.withRemediating(List.of(node.name()));
                    } else if (!pool.sick.get(i) && !lastHeld.isEmpty()) {
                        lastHeld.remove(node.name());
                    }
                } else if (remediation.policy() == pool.policy) {
                    follow(remediation, pool.nodes.get(i), view, now, decisions);
                }
            }
        }
        decisions.forEach(listener);
        return decisions;
    }

    /** The node's active remediation: policy, remedy and since when, if any. */
    public Optional<String> activeRemedy(String node) {
        return Optional.ofNullable(active.get(node)).map(r -> r.remedy().name());
    }

    /** How many nodes are being remediated. */
    public int remediating() {
        return active.size();
    }

    /** Starts a remediation of a node not being remediated, if it is due and admitted; true if started. */
    private boolean consider(Policy policy, NodeStatus node, PoolView pool, Instant now,
                             List<PolicyDecision> decisions) {
        if (policy.paused()) {
            noteHeld(node, policy, Kind.PAUSED, "new remediations are paused by " + policy.pauseRequests(), now,
                    decisions);
            return false;
        }
        Optional<String> held = gate.holdBack(node.name(), policy, pool, now);
        if (held.isPresent()) {
            noteHeld(node, policy, Kind.HELD, held.get(), now, decisions);
            return false;
        }
        lastHeld.remove(node.name());
        Remedy first = policy.escalation().get(0);
        String reason = "unhealthy: " + describeConditions(policy, node);
        runner.start(node.name(), first, reason, gate.raceDelay(node.name(), policy));
        active.put(node.name(), new Remediation(policy, 0, now, null, false, true));
        decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.STARTED, first.name(), reason));
        return true;
    }

    /** The management side lost the node: its kubelet stopped posting status ({@code Ready=Unknown}). */
    private static boolean disconnected(NodeStatus node) {
        NodeCondition ready = node.find("Ready");
        return ready != null && ready.status().equals("Unknown");
    }

    /** The node's fence-race priority, from {@value #PRIORITY_LABEL} (0 when absent or not a number). */
    private static int priority(NodeStatus node) {
        String value = node.labels().get(PRIORITY_LABEL);
        if (value == null) {
            return 0;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void follow(Remediation r, NodeStatus node, PoolView view, Instant now, List<PolicyDecision> decisions) {
        Policy policy = r.policy();
        if (!showsAnyCondition(policy, node)) {
            Instant healthySince = r.healthySince() != null ? r.healthySince() : now;
            if (!now.isBefore(healthySince.plus(policy.healthyDelay()))) {
                if (!r.exhausted() && r.started() && r.remedy() instanceof Remedy.External) {
                    runner.cancel(node.name(), r.remedy(), "node is healthy");
                }
                active.remove(node.name());
                decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.RECOVERED, r.remedy().name(),
                        "healthy for " + policy.healthyDelay() + "; remediation ended"));
            } else if (r.healthySince() == null) {
                active.put(node.name(), r.withHealthySince(now));
            }
            return;
        }
        if (r.healthySince() != null) {
            r = r.withHealthySince(null);
            active.put(node.name(), r);
        }
        if (r.exhausted()) {
            return;
        }
        if (!r.started()) {
            escalate(r.policy(), r.rung(), node, view, now, "escalation was held back", decisions);
            return;
        }
        RemedyRunner.Progress progress = runner.progress(node.name(), r.remedy());
        boolean timedOut = !now.isBefore(r.rungStarted().plus(r.remedy().timeout()));
        if (progress != RemedyRunner.Progress.FAILED && !timedOut) {
            return;
        }
        String why = progress == RemedyRunner.Progress.FAILED ? "remedy " + r.remedy().name() + " failed"
                : "remedy " + r.remedy().name() + " did not make the node healthy within " + r.remedy().timeout();
        if (progress != RemedyRunner.Progress.FAILED) {
            runner.cancel(node.name(), r.remedy(), why);
            decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.CANCELLED, r.remedy().name(), why));
        }
        int next = r.rung() + 1;
        if (next < policy.escalation().size()) {
            escalate(policy, next, node, view, now, why, decisions);
        } else {
            active.put(node.name(), new Remediation(policy, r.rung(), r.rungStarted(), null, true, true));
            decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.EXHAUSTED, r.remedy().name(),
                    why + "; no remedy left: the node needs a person"));
        }
    }

    /**
     * Starts rung {@code rung}. A fence is a new fence: storm protection is asked first, and while it holds the
     * escalation back the node waits at that rung, not started, and is asked again at the next evaluation.
     */
    private void escalate(Policy policy, int rung, NodeStatus node, PoolView view, Instant now, String why,
                          List<PolicyDecision> decisions) {
        Remedy remedy = policy.escalation().get(rung);
        if (remedy instanceof Remedy.Fence) {
            Optional<String> held = gate.holdBack(node.name(), policy, view, now);
            if (held.isPresent()) {
                active.put(node.name(), new Remediation(policy, rung, now, null, false, false));
                noteHeld(node, policy, Kind.HELD, held.get(), now, decisions);
                return;
            }
        }
        lastHeld.remove(node.name());
        runner.start(node.name(), remedy, why + "; escalating", gate.raceDelay(node.name(), policy));
        active.put(node.name(), new Remediation(policy, rung, now, null, false, true));
        decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.ESCALATED, remedy.name(), why));
    }

    private void noteHeld(NodeStatus node, Policy policy, Kind kind, String reason, Instant now,
                          List<PolicyDecision> decisions) {
        if (!reason.equals(lastHeld.put(node.name(), reason))) {
            decisions.add(new PolicyDecision(now, node.name(), policy.name(), kind, "", reason));
        }
    }

    /**
     * Whether {@code node} has shown one unhealthy condition or another, without a break, since {@code threshold}
     * (now minus the policy's longest duration): a node flapping between {@code Ready=Unknown} and
     * {@code Ready=False} resets each condition's transition time but is unhealthy all the same.
     */
    private boolean flippingSince(Policy policy, NodeStatus node, Instant threshold) {
        Instant earliest = earliestShown(policy, node);
        if (earliest == null) {
            return false;
        }
        Instant known = nextEpisodes.get(node.name());
        Instant since = min(known != null ? known : episodes.get(node.name()), earliest);
        nextEpisodes.put(node.name(), since);
        return !since.isAfter(threshold);
    }

    private static Duration longestDuration(Policy policy) {
        Duration longest = Duration.ZERO;
        for (UnhealthyCondition condition : policy.conditions()) {
            if (condition.duration().compareTo(longest) > 0) {
                longest = condition.duration();
            }
        }
        return longest;
    }

    private static Instant[] thresholds(Policy policy, Instant now) {
        List<UnhealthyCondition> conditions = policy.conditions();
        Instant[] thresholds = new Instant[conditions.size()];
        for (int i = 0; i < thresholds.length; i++) {
            thresholds[i] = now.minus(conditions.get(i).duration());
        }
        return thresholds;
    }

    private static boolean unhealthyAt(Policy policy, Instant[] thresholds, NodeStatus node) {
        List<UnhealthyCondition> conditions = policy.conditions();
        for (int i = 0; i < thresholds.length; i++) {
            if (conditions.get(i).heldSince(node, thresholds[i])) {
                return true;
            }
        }
        return false;
    }

    private static boolean showsAnyCondition(Policy policy, NodeStatus node) {
        for (UnhealthyCondition condition : policy.conditions()) {
            if (condition.shownBy(node)) {
                return true;
            }
        }
        return false;
    }

    private static String describeConditions(Policy policy, NodeStatus node) {
        List<String> shown = new ArrayList<>();
        for (UnhealthyCondition c : policy.conditions()) {
            if (c.shownBy(node)) {
                shown.add(c.type() + "=" + c.status() + " for at least " + c.duration());
            }
        }
        return String.join(", ", shown);
    }

    /** One policy's share of an evaluation: the nodes it covers, which are sick, their views for storm protection. */
    private static final class Pool {
        private final Policy policy;
        private final Optional<String> domainLabel;
        /** Node priorities only matter when a priority delay is configured. */
        private final boolean usesPriority;
        private final List<NodeStatus> nodes = new ArrayList<>();
        private final java.util.BitSet sick = new java.util.BitSet();
        private final List<Remediation> remediations = new ArrayList<>();
        private final List<NodeView> views = new ArrayList<>();
        private Instant[] thresholds;
        private Instant longest;

        Pool(Policy policy) {
            this.policy = policy;
            this.domainLabel = policy.storm().failureDomainLabel();
            this.usesPriority = !policy.storm().priorityDelay().isZero();
        }

        void reset(Instant now, int expected) {
            thresholds = thresholds(policy, now);
            longest = now.minus(longestDuration(policy));
            nodes.clear();
            sick.clear();
            remediations.clear();
            views.clear();
        }

        void add(NodeStatus node, boolean isSick, Remediation remediation, NodeView view) {
            sick.set(nodes.size(), isSick);
            nodes.add(node);
            remediations.add(remediation);
            views.add(view);
        }
    }

    /**
     * A node's remediation: the policy, which rung of the ladder and since when, whether it is healthy now, whether
     * the ladder ran out, and whether the rung's remedy started (an escalation to a fence may wait for admission).
     */
    private record Remediation(Policy policy, int rung, Instant rungStarted, Instant healthySince, boolean exhausted,
                               boolean started) {
        Remedy remedy() {
            return policy.escalation().get(rung);
        }

        Remediation withHealthySince(Instant since) {
            return new Remediation(policy, rung, rungStarted, since, exhausted, started);
        }
    }
}
