package dev.remedy.core.storm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One observation of a pool of nodes, the input of storm protection. Built once per observation in O(n); every
 * count is precomputed, so each admission query is O(1), or O(domains) for the failure-domain scan.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class PoolView {

    /** The nodes, when the view was built from a list; null when built from a {@link PoolTally}. */
    private final List<NodeView> list;
    private final int total;
    /** By name; built on first lookup when the caller vouched that names are distinct ({@link #ofDistinct}). */
    private volatile Map<String, NodeView> nodes;
    private final Set<String> extraRemediating;
    private final int healthy;
    private final int unhealthy;
    private final int remediating;
    private final int disconnected;
    private final int controlPlaneTotal;
    private final int controlPlaneHealthy;
    private final int controlPlaneRemediating;
    private final int maxPriority;
    private final int atMaxPriority;
    private final Map<String, DomainCounts> domains;
    /** The domains with some not-healthy node, by how many, as the tally counted them; null for a list's view. */
    private final NavigableMap<Integer, Set<String>> byNotHealthy;
    /** How much {@link #withRemediating} raised domains' not-healthy counts above {@link #byNotHealthy}'s. */
    private final Map<String, Integer> raised;

    PoolView(List<NodeView> list, Map<String, NodeView> nodes, Set<String> extraRemediating, int[] counts,
             int maxPriority, int atMaxPriority, Map<String, DomainCounts> domains,
             NavigableMap<Integer, Set<String>> byNotHealthy) {
        this(list, nodes, extraRemediating, counts, maxPriority, atMaxPriority, domains, byNotHealthy, Map.of());
    }

    private PoolView(List<NodeView> list, Map<String, NodeView> nodes, Set<String> extraRemediating, int[] counts,
                     int maxPriority, int atMaxPriority, Map<String, DomainCounts> domains,
                     NavigableMap<Integer, Set<String>> byNotHealthy, Map<String, Integer> raised) {
        this.list = list;
        this.total = list != null ? list.size() : nodes.size();
        this.nodes = nodes;
        this.extraRemediating = extraRemediating;
        this.healthy = counts[0];
        this.unhealthy = counts[1];
        this.remediating = counts[2];
        this.disconnected = counts[3];
        this.controlPlaneTotal = counts[4];
        this.controlPlaneHealthy = counts[5];
        this.controlPlaneRemediating = counts[6];
        this.maxPriority = maxPriority;
        this.atMaxPriority = atMaxPriority;
        this.domains = domains;
        this.byNotHealthy = byNotHealthy;
        this.raised = raised;
    }

    /**
     * A view of {@code nodes}.
     *
     * @throws IllegalArgumentException naming the node if two views share a name
     */
    public static PoolView of(Collection<NodeView> nodes) {
        Objects.requireNonNull(nodes, "nodes");
        return count(List.copyOf(nodes), index(nodes));
    }

    /**
     * A view of {@code nodes}, whose names the caller guarantees to be distinct: the index by name is built only
     * if a lookup needs it, which keeps a view of a large pool cheap to build on every observation.
     */
    public static PoolView ofDistinct(List<NodeView> nodes) {
        Objects.requireNonNull(nodes, "nodes");
        return count(nodes, null);
    }

    private static Map<String, NodeView> index(Collection<NodeView> nodes) {
        Map<String, NodeView> byName = new HashMap<>(Math.max(16, nodes.size() * 4 / 3 + 1));
        for (NodeView node : nodes) {
            Objects.requireNonNull(node, "a node view");
            if (byName.putIfAbsent(node.name(), node) != null) {
                throw new IllegalArgumentException("node " + node.name() + " appears twice in the pool view");
            }
        }
        return Collections.unmodifiableMap(byName);
    }

    private static PoolView count(List<NodeView> nodes, Map<String, NodeView> byName) {
        Map<String, int[]> perDomain = new HashMap<>();
        int[] counts = new int[7];
        int maxPriority = Integer.MIN_VALUE;
        int atMax = 0;
        for (NodeView node : nodes) {
            count(counts, node, 1);
            if (node.priority() > maxPriority) {
                maxPriority = node.priority();
                atMax = 1;
            } else if (node.priority() == maxPriority) {
                atMax++;
            }
            countDomain(perDomain, node, 1);
        }
        Map<String, DomainCounts> domains = new HashMap<>(Math.max(16, perDomain.size() * 4 / 3 + 1));
        perDomain.forEach((value, c) -> domains.put(value, new DomainCounts(value, c[0], c[1])));
        return new PoolView(nodes, byName, Set.of(), counts, maxPriority, atMax, Collections.unmodifiableMap(domains),
                null);
    }

    /** A view of {@code nodes}. */
    public static PoolView of(NodeView... nodes) {
        return of(Arrays.asList(nodes));
    }

    /**
     * This view with remediations in progress for {@code names} as well: how a guard accounts for fences it
     * recorded that the caller's observation does not show yet. A name absent from the pool still counts in
     * {@link #remediating()} (its node object may have been deleted while it is being fenced). Costs
     * O(names + domains).
     */
    public PoolView withRemediating(Collection<String> names) {
        Objects.requireNonNull(names, "names");
        Set<String> extra = new HashSet<>(extraRemediating);
        int[] counts = {healthy, unhealthy, remediating, disconnected, controlPlaneTotal, controlPlaneHealthy,
            controlPlaneRemediating};
        Map<String, DomainCounts> newDomains = domains;
        Map<String, Integer> newRaised = raised;
        for (String name : names) {
            if (isRemediating(name) || !extra.add(name)) {
                continue;
            }
            counts[2]++;
            NodeView node = byName().get(name);
            if (node == null) {
                continue;
            }
            counts[6] += node.controlPlane() ? 1 : 0;
            if (node.healthy()) {
                counts[0]--;
                counts[5] -= node.controlPlane() ? 1 : 0;
                if (node.failureDomain().isPresent()) {
                    if (newDomains == domains) {
                        newDomains = new HashMap<>(domains);
                    }
                    DomainCounts d = newDomains.get(node.failureDomain().get());
                    newDomains.put(d.value(), new DomainCounts(d.value(), d.total(), d.notHealthy() + 1));
                    if (byNotHealthy != null) {
                        if (newRaised == raised) {
                            newRaised = new HashMap<>(raised);
                        }
                        newRaised.merge(d.value(), 1, Integer::sum);
                    }
                }
            }
        }
        if (extra.size() == extraRemediating.size()) {
            return this;
        }
        return new PoolView(list, nodes, Collections.unmodifiableSet(extra), counts, maxPriority, atMaxPriority,
                newDomains == domains ? domains : Collections.unmodifiableMap(newDomains), byNotHealthy,
                newRaised == raised ? raised : Collections.unmodifiableMap(newRaised));
    }

    /** Adds ({@code sign} 1) or removes (-1) {@code node} in the pool counts; shared with {@link PoolTally}. */
    static void count(int[] counts, NodeView node, int sign) {
        boolean healthy = node.healthy();
        counts[0] += healthy ? sign : 0;
        counts[1] += node.unhealthy() ? sign : 0;
        counts[2] += node.remediating() ? sign : 0;
        counts[3] += node.disconnected() ? sign : 0;
        if (node.controlPlane()) {
            counts[4] += sign;
            counts[5] += healthy ? sign : 0;
            counts[6] += node.remediating() ? sign : 0;
        }
    }

    /** Adds ({@code sign} 1) or removes (-1) {@code node} in the per-domain totals (total, not healthy). */
    static void countDomain(Map<String, int[]> perDomain, NodeView node, int sign) {
        if (node.failureDomain().isPresent()) {
            int[] domain = perDomain.computeIfAbsent(node.failureDomain().get(), d -> new int[2]);
            domain[0] += sign;
            domain[1] += node.healthy() ? 0 : sign;
        }
    }

    private Map<String, NodeView> byName() {
        Map<String, NodeView> index = nodes;
        if (index == null) {
            index = index(list);
            nodes = index;
        }
        return index;
    }

    /** The node called {@code name}, if it is in the pool. */
    public Optional<NodeView> node(String name) {
        NodeView node = byName().get(name);
        if (node != null && extraRemediating.contains(name)) {
            return Optional.of(node.asRemediating());
        }
        return Optional.ofNullable(node);
    }

    /** Whether the pool has a node called {@code name}. */
    public boolean contains(String name) {
        return byName().containsKey(name);
    }

    /** Whether a remediation is in progress for {@code name} (observed, or added by {@link #withRemediating}). */
    public boolean isRemediating(String name) {
        NodeView node = byName().get(name);
        return extraRemediating.contains(name) || node != null && node.remediating();
    }

    /** How many nodes the pool has. */
    public int total() {
        return total;
    }

    /** Nodes that match no unhealthy condition and have no remediation in progress. */
    public int healthy() {
        return healthy;
    }

    /** Nodes that are not {@linkplain #healthy() healthy}: unhealthy, remediating or both. */
    public int notHealthy() {
        return total - healthy;
    }

    /** Nodes that match an unhealthy condition (remediating or not). */
    public int unhealthy() {
        return unhealthy;
    }

    /** Remediations in progress, including ones added for names absent from the pool. */
    public int remediating() {
        return remediating;
    }

    /** Nodes the management side lost connectivity to. */
    public int disconnected() {
        return disconnected;
    }

    /** Control-plane nodes. */
    public int controlPlaneTotal() {
        return controlPlaneTotal;
    }

    /** Healthy control-plane nodes. */
    public int controlPlaneHealthy() {
        return controlPlaneHealthy;
    }

    /** Control-plane nodes with a remediation in progress. */
    public int controlPlaneRemediating() {
        return controlPlaneRemediating;
    }

    /** The counts of failure domain {@code value}, if any node of the pool is in it. */
    public Optional<DomainCounts> domain(String value) {
        return Optional.ofNullable(domains.get(value));
    }

    /** The counts of every failure domain of the pool (unordered, unmodifiable). */
    public Collection<DomainCounts> domains() {
        return domains.values();
    }

    /**
     * The failure domains with at least {@code min} (at least 1) not-healthy nodes, unordered: O(those domains)
     * for a view of a {@link PoolTally}, O(domains) for a view of a list.
     */
    Collection<DomainCounts> domainsNotHealthyAtLeast(int min) {
        if (min < 1) {
            throw new IllegalArgumentException("need min >= 1, got " + min);
        }
        List<DomainCounts> found = new ArrayList<>();
        if (byNotHealthy == null) {
            for (DomainCounts domain : domains.values()) {
                if (domain.notHealthy() >= min) {
                    found.add(domain);
                }
            }
            return found;
        }
        // The index counts before withRemediating, which only raises counts: a domain listed stays listed.
        for (Set<String> bucket : byNotHealthy.tailMap(min, true).values()) {
            for (String value : bucket) {
                found.add(domains.get(value));
            }
        }
        for (Map.Entry<String, Integer> entry : raised.entrySet()) {
            DomainCounts domain = domains.get(entry.getKey());
            int before = domain.notHealthy() - entry.getValue();
            if (before < min && domain.notHealthy() >= min) {
                found.add(domain);
            }
        }
        return found;
    }

    /**
     * Whether {@code name} has a higher fence-race priority than every other node of the pool. False in a pool
     * of one node and when the highest priority is shared.
     */
    public boolean hasHighestPriority(String name) {
        NodeView node = byName().get(name);
        return node != null && total > 1 && atMaxPriority == 1 && node.priority() == maxPriority;
    }

    @Override
    public String toString() {
        return "PoolView[" + total() + " nodes, " + healthy + " healthy, " + remediating + " remediating, "
                + disconnected + " disconnected, " + domains.size() + " failure domains]";
    }
}
