package dev.remedy.core.storm;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A pool kept up to date one node at a time: {@link #put} and {@link #remove} cost O(log n), and {@link #view()}
 * costs O(1), whatever the size of the pool (storm protection reads only the failure domains that may be suspect). This is how a fleet of 100,000 nodes is evaluated on
 * every observation without reading every node again. Not thread-safe; a view is valid until the tally changes.
 */
public final class PoolTally {

    private final Map<String, NodeView> nodes = new HashMap<>();
    private final int[] counts = new int[7];
    private final TreeMap<Integer, Integer> priorities = new TreeMap<>();
    private final Map<String, DomainCounts> domains = new HashMap<>();
    /** The failure domains with some not-healthy node, by how many: storm protection looks only at the worst. */
    private final TreeMap<Integer, Set<String>> byNotHealthy = new TreeMap<>();

    /** Adds {@code node}, or replaces the node of that name. */
    public void put(NodeView node) {
        NodeView old = nodes.put(node.name(), node);
        if (old != null) {
            apply(old, -1);
        }
        apply(node, 1);
    }

    /** Removes the node called {@code name}, if it is in the pool. */
    public void remove(String name) {
        NodeView old = nodes.remove(name);
        if (old != null) {
            apply(old, -1);
        }
    }

    /** The node called {@code name}, if it is in the pool. */
    public Optional<NodeView> node(String name) {
        return Optional.ofNullable(nodes.get(name));
    }

    /** How many nodes the pool has. */
    public int size() {
        return nodes.size();
    }

    /** The pool as it is now, for storm protection; O(1): it reads the tally's maps until the tally changes. */
    public PoolView view() {
        Map.Entry<Integer, Integer> top = priorities.lastEntry();
        return new PoolView(null, Collections.unmodifiableMap(nodes), Set.of(), counts.clone(),
                top == null ? Integer.MIN_VALUE : top.getKey(), top == null ? 0 : top.getValue(),
                Collections.unmodifiableMap(domains), Collections.unmodifiableNavigableMap(byNotHealthy));
    }

    private void apply(NodeView node, int sign) {
        PoolView.count(counts, node, sign);
        node.failureDomain().ifPresent(value -> {
            DomainCounts old = domains.get(value);
            int total = (old == null ? 0 : old.total()) + sign;
            int notHealthy = (old == null ? 0 : old.notHealthy()) + (node.healthy() ? 0 : sign);
            if (total == 0) {
                domains.remove(value);
            } else {
                domains.put(value, new DomainCounts(value, total, notHealthy));
            }
            int before = old == null ? 0 : old.notHealthy();
            if (before != notHealthy) {
                index(value, before, false);
                index(value, notHealthy, true);
            }
        });
        priorities.merge(node.priority(), sign, (a, b) -> a + b == 0 ? null : a + b);
    }

    /** Adds or removes {@code domain} in the index of domains with {@code notHealthy} (≥ 1) not-healthy nodes. */
    private void index(String domain, int notHealthy, boolean add) {
        if (notHealthy == 0) {
            return;
        }
        if (add) {
            byNotHealthy.computeIfAbsent(notHealthy, n -> new HashSet<>()).add(domain);
        } else {
            Set<String> bucket = byNotHealthy.get(notHealthy);
            bucket.remove(domain);
            if (bucket.isEmpty()) {
                byNotHealthy.remove(notHealthy);
            }
        }
    }
}
