package dev.remedy.core.policy;

import dev.remedy.core.storm.NodeView;
import dev.remedy.core.storm.PoolView;
import dev.remedy.core.time.Deadlines;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Applies remedy policies to every node at each call ({@link #evaluate}, a reconcile pass, O(n)): starts the first
 * remedy of a node that has been unhealthy long enough (if storm protection admits it), escalates when a remedy
 * fails (at once) or times out (cancelled first), and ends the remediation once the node has stayed healthy for the
 * policy's healthy delay. For fleets too large to pass over at every change, {@link IncrementalPolicyController}
 * applies the same rules to the node that changed.
 *
 * <p>A node counts as healthy only when it shows none of the policy's unhealthy conditions at all; the duration
 * matters only for starting. So a node that flips between two unhealthy conditions during a reboot
 * ({@code Ready=Unknown} → {@code Ready=False}) keeps its remediation and its remedy's clock: it neither restarts
 * nor escalates early. A node is in the pool of every policy that covers it (for counting), and is remediated by
 * the first policy, in order, under which it is unhealthy; it has one remediation at a time.
 *
 * <p>Not thread-safe: call it from one thread (a reconcile loop). Time is passed in.
 */
public final class PolicyController {

    private final Remediations remediations;
    /** Since when each node has shown some unhealthy condition without a break (episodes survive flips). */
    private Map<String, Instant> episodes = new HashMap<>();
    /** The episodes seen by the running evaluation; replaces {@link #episodes} at its end. */
    private Map<String, Instant> nextEpisodes = new HashMap<>();
    /** Per-policy working lists, reused by every evaluation (a fleet of 100,000 nodes would churn megabytes). */
    private final List<Pool> pools;

    /** A controller for {@code policies}, running remedies with {@code runner}, admitting through {@code gate}. */
    public PolicyController(List<Policy> policies, RemedyRunner runner, AdmissionGate gate,
                            Consumer<PolicyDecision> listener) {
        this.remediations = new Remediations(policies, runner, gate, listener);
        this.pools = remediations.policies().stream().map(Pool::new).toList();
    }

    /**
     * One evaluation of every policy over {@code nodes} (distinct names); returns the decisions made (also sent to the
     * listener).
     */
    public List<PolicyDecision> evaluate(Collection<NodeStatus> nodes, Instant now) {
        List<PolicyDecision> decisions = new ArrayList<>();
        for (Pool pool : pools) {
            pool.reset(now);
        }
        nextEpisodes.clear();
        // One pass over the nodes: each node object is read once, which matters at 100,000 nodes.
        for (NodeStatus node : nodes) {
            Policy remediating = remediations.policyOf(node.name()).orElse(null);
            for (Pool pool : pools) {
                if (pool.policy.covers(node)) {
                    boolean sick = Conditions.unhealthyAt(pool.policy, pool.thresholds, node)
                            || flippingSince(pool.policy, node, pool.longest);
                    pool.add(node, sick, remediating, remediations.view(pool.policy, node, sick));
                }
            }
        }
        Map<String, Instant> finished = episodes;
        episodes = nextEpisodes;
        nextEpisodes = finished;
        for (Pool pool : pools) {
            PoolView view = PoolView.ofDistinct(List.copyOf(pool.views));
            remediations.gate().observe(pool.policy, view, now);
            for (int i = 0; i < pool.nodes.size(); i++) {
                Policy remediating = pool.remediating.get(i);
                NodeStatus node = pool.nodes.get(i);
                if (remediating == null) {
                    if (pool.sick.get(i) && !remediations.isActive(node.name())
                            && remediations.consider(pool.policy, node, view, now, decisions)) {
                        view = view.withRemediating(List.of(node.name()));
                    } else if (!pool.sick.get(i) && remediations.anyHeld()) {
                        remediations.clearHold(node.name());
                    }
                } else if (remediating == pool.policy) {
                    remediations.follow(node, view, now, decisions);
                }
            }
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

    /**
     * Whether {@code node} has shown one unhealthy condition or another, without a break, since {@code threshold}
     * (now minus the policy's longest duration): a node flapping between {@code Ready=Unknown} and
     * {@code Ready=False} resets each condition's transition time but is unhealthy all the same.
     */
    private boolean flippingSince(Policy policy, NodeStatus node, Instant threshold) {
        Instant earliest = Conditions.earliestShown(policy, node);
        if (earliest == null) {
            return false;
        }
        Instant known = nextEpisodes.get(node.name());
        Instant since = Conditions.min(known != null ? known : episodes.get(node.name()), earliest);
        nextEpisodes.put(node.name(), since);
        return !since.isAfter(threshold);
    }

    /** One policy's share of an evaluation: the nodes it covers, which are sick, their views for storm protection. */
    private static final class Pool {
        private final Policy policy;
        private final List<NodeStatus> nodes = new ArrayList<>();
        private final BitSet sick = new BitSet();
        /** The policy remediating each node when the evaluation began, or null. */
        private final List<Policy> remediating = new ArrayList<>();
        private final List<NodeView> views = new ArrayList<>();
        private Instant[] thresholds;
        private Instant longest;

        Pool(Policy policy) {
            this.policy = policy;
        }

        void reset(Instant now) {
            thresholds = Conditions.thresholds(policy, now);
            longest = Deadlines.minus(now, Conditions.longestDuration(policy));
            nodes.clear();
            sick.clear();
            remediating.clear();
            views.clear();
        }

        void add(NodeStatus node, boolean isSick, Policy remediatingPolicy, NodeView view) {
            sick.set(nodes.size(), isSick);
            nodes.add(node);
            remediating.add(remediatingPolicy);
            views.add(view);
        }
    }
}
