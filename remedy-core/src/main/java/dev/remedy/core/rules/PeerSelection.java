package dev.remedy.core.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Which peers a node that lost the API server asks, and in which batches (after medik8s Self Node Remediation).
 *
 * <p>A batch has {@code k = max(1, min(n / 10, n - 1))} peers for a cluster of {@code n} nodes counting the asking
 * node (integer division; {@code k = 0} for a single-node cluster, which has no peer): the design's
 * {@code min(n / 10, n - 1)}, which is 0 below 10 nodes, where a node would ask nobody. The first batch has
 * {@code max(}{@value #FIRST_BATCH}{@code , k)} peers (at most {@code n - 1}), as medik8s Self Node Remediation asks
 * three peers first: in a small cluster one round then hears several peers instead of one, and the worst case asks
 * fewer batches. The peers are put in a random order drawn from the injected {@link RandomGenerator} (so a seed makes
 * it reproducible) and cut into consecutive batches ({@link #cut}); the node never asks itself.
 *
 * <p>With {@code spreadDomains}, the order is spread over failure domains: the other domains' peers are interleaved
 * round-robin (domains in random order, peers shuffled within each), so the first batch covers as many distinct
 * domains as it has room for; the peers of the node's own domain come last, because a failure of the shared rack or
 * switch cuts them off together with the node and they cannot tell its failure from theirs. Unlabelled peers form one
 * "unknown" domain, which is never the node's own. An unlabelled asking node has no own domain.
 */
public final class PeerSelection {

    /** The least number of peers of the first batch (all of them when there are fewer). */
    public static final int FIRST_BATCH = 3;

    private PeerSelection() {
    }

    /**
     * The size of one batch.
     *
     * @param clusterSize the number of nodes in the cluster, the asking node included; at least 1
     * @return {@code max(1, min(clusterSize / 10, clusterSize - 1))}, or 0 for a single node
     */
    public static int batchSize(int clusterSize) {
        if (clusterSize < 1) {
            throw new IllegalArgumentException("clusterSize: must be at least 1 (the asking node), was " + clusterSize);
        }
        if (clusterSize == 1) {
            return 0;
        }
        return Math.max(1, Math.min(clusterSize / 10, clusterSize - 1));
    }

    /**
     * The size of the first batch.
     *
     * @param clusterSize the number of nodes in the cluster, the asking node included; at least 1
     * @return {@code min(clusterSize - 1, max(FIRST_BATCH, batchSize))}, or 0 for a single node
     */
    public static int firstBatchSize(int clusterSize) {
        return Math.min(clusterSize - 1, Math.max(FIRST_BATCH, batchSize(clusterSize)));
    }

    /**
     * How many batches it takes to ask every peer: the worst case of a verdict.
     *
     * @param clusterSize the number of nodes in the cluster, the asking node included; at least 1
     * @return one for the first batch, then {@code ceil(rest / batchSize)} for the peers left; 0 for a single node
     */
    public static int batchCount(int clusterSize) {
        int first = firstBatchSize(clusterSize);
        if (first == 0) {
            return 0;
        }
        int k = batchSize(clusterSize);
        return 1 + (clusterSize - 1 - first + k - 1) / k;
    }

    /**
     * Cuts the peers, in the order they are asked, into batches: {@link #firstBatchSize}, then {@link #batchSize},
     * for a cluster of {@code ordered.size() + 1} nodes. The node side asks these batches; the operator cuts the
     * answers it supposes the same way.
     *
     * @param ordered every peer, in the order asked
     * @param <T>     what stands for a peer
     * @return the batches in order; the last may be smaller; empty without peers
     */
    public static <T> List<List<T>> cut(List<T> ordered) {
        Objects.requireNonNull(ordered, "ordered");
        int n = ordered.size() + 1;
        List<List<T>> batches = new ArrayList<>();
        for (int i = 0, size = firstBatchSize(n); i < ordered.size(); i += size, size = batchSize(n)) {
            batches.add(List.copyOf(ordered.subList(i, Math.min(ordered.size(), i + size))));
        }
        return List.copyOf(batches);
    }

    /**
     * Every peer of {@code self} in the order they are asked.
     *
     * @param self          the asking node
     * @param nodes         the cluster's nodes; may include {@code self}, names must be unique
     * @param random        the source of randomness
     * @param spreadDomains whether to spread the order over failure domains
     * @return the peers, {@code self} excluded
     */
    public static List<Peer> order(Peer self, List<Peer> nodes, RandomGenerator random, boolean spreadDomains) {
        Objects.requireNonNull(self, "self");
        Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(random, "random");
        Set<String> names = new HashSet<>();
        List<Peer> peers = new ArrayList<>(nodes.size());
        for (Peer p : nodes) {
            Objects.requireNonNull(p, "nodes: an element is null");
            if (!names.add(p.name())) {
                throw new IllegalArgumentException("nodes: the name " + p.name() + " appears twice");
            }
            if (!p.name().equals(self.name())) {
                peers.add(p);
            }
        }
        shuffle(peers, random);
        if (!spreadDomains) {
            return List.copyOf(peers);
        }
        Map<Optional<String>, List<Peer>> others = new LinkedHashMap<>();
        List<Peer> own = new ArrayList<>();
        for (Peer p : peers) {
            if (self.failureDomain().isPresent() && p.failureDomain().equals(self.failureDomain())) {
                own.add(p);
            } else {
                others.computeIfAbsent(p.failureDomain(), d -> new ArrayList<>()).add(p);
            }
        }
        List<Peer> ordered = new ArrayList<>(peers.size());
        List<List<Peer>> groups = new ArrayList<>(others.values());
        for (int round = 0; ordered.size() < peers.size() - own.size(); round++) {
            for (List<Peer> group : groups) {
                if (round < group.size()) {
                    ordered.add(group.get(round));
                }
            }
        }
        ordered.addAll(own);
        return List.copyOf(ordered);
    }

    /**
     * Every peer of {@code self}, cut into batches ({@link #cut}).
     *
     * @param self          the asking node
     * @param nodes         the cluster's nodes; may include {@code self}, names must be unique
     * @param random        the source of randomness
     * @param spreadDomains whether to spread the order over failure domains
     * @return the batches in the order to ask them; the last may be smaller; empty without peers
     */
    public static List<List<Peer>> batches(Peer self, List<Peer> nodes, RandomGenerator random,
            boolean spreadDomains) {
        return cut(order(self, nodes, random, spreadDomains));
    }

    /**
     * The first batch: the peers to ask first.
     *
     * @param self          the asking node
     * @param nodes         the cluster's nodes; may include {@code self}, names must be unique
     * @param random        the source of randomness
     * @param spreadDomains whether to spread the choice over failure domains
     * @return {@link #firstBatchSize(int)} peers, or none without peers
     */
    public static List<Peer> pick(Peer self, List<Peer> nodes, RandomGenerator random, boolean spreadDomains) {
        List<List<Peer>> batches = batches(self, nodes, random, spreadDomains);
        return batches.isEmpty() ? List.of() : batches.get(0);
    }

    private static void shuffle(List<Peer> list, RandomGenerator random) {
        for (int i = list.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Peer t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
    }
}
