package dev.remedy.core.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Peer choice: batch sizes for n = 1..100, never self, reproducible with a seed, spread over failure domains. */
class PeerSelectionTest {

    private static List<Peer> cluster(int n, int domains) {
        List<Peer> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(domains == 0 ? Peer.of("node-" + i) : Peer.of("node-" + i, "rack-" + (i % domains)));
        }
        return nodes;
    }

    @Test
    @DisplayName("for n = 1..100 a batch has 0 peers for n=1, 1 for n=2..19, then n/10 rounded down; the first batch"
            + " (the peers picked) at least 3, or every peer when fewer")
    void batchSizes() {
        for (int n = 1; n <= 100; n++) {
            int expected = n == 1 ? 0 : n < 20 ? 1 : n / 10;
            assertThat(PeerSelection.batchSize(n)).as("n=%d", n).isEqualTo(expected);
            int first = Math.min(n - 1, Math.max(3, expected));
            assertThat(PeerSelection.firstBatchSize(n)).as("n=%d", n).isEqualTo(first);
            List<Peer> nodes = cluster(n, 0);
            List<Peer> picked = PeerSelection.pick(nodes.get(0), nodes, new SplittableRandom(n), false);
            assertThat(picked).as("n=%d", n).hasSize(first);
            assertThat(picked).as("n=%d never self", n).doesNotContain(nodes.get(0));
            assertThat(picked.size()).as("n=%d bounds", n).isLessThanOrEqualTo(n - 1)
                    .isGreaterThanOrEqualTo(n > 1 ? 1 : 0);
        }
    }

    @ParameterizedTest(name = "n={0}: first batch {1}, then {2}, {3} batches")
    @CsvSource({"1, 0, 0, 0", "2, 1, 1, 1", "3, 2, 1, 1", "4, 3, 1, 1", "5, 3, 1, 2", "6, 3, 1, 3", "10, 3, 1, 7",
        "19, 3, 1, 16", "20, 3, 2, 9", "29, 3, 2, 14", "30, 3, 3, 10", "99, 9, 9, 11", "100, 10, 10, 10",
        "101, 10, 10, 10", "1000, 100, 100, 10", "5000, 500, 500, 10"})
    @DisplayName("batch sizes and the number of batches to ask every peer")
    void batchCounts(int n, int first, int size, int count) {
        assertThat(PeerSelection.firstBatchSize(n)).isEqualTo(first);
        assertThat(PeerSelection.batchSize(n)).isEqualTo(size);
        assertThat(PeerSelection.batchCount(n)).isEqualTo(count);
    }

    @Test
    @DisplayName("the batches cover every peer exactly once, never self, the first of the first batch's size, the"
            + " others of the batch size")
    void batchesCoverPeers() {
        for (int n = 1; n <= 60; n++) {
            List<Peer> nodes = cluster(n, 4);
            Peer self = nodes.get(n / 2);
            for (boolean spread : new boolean[] {false, true}) {
                List<List<Peer>> batches = PeerSelection.batches(self, nodes, new Random(7), spread);
                List<Peer> all = batches.stream().flatMap(List::stream).toList();
                assertThat(all).as("n=%d", n).doesNotContain(self).doesNotHaveDuplicates().hasSize(n - 1);
                assertThat(batches).as("n=%d", n).hasSize(PeerSelection.batchCount(n));
                for (int i = 0; i < batches.size() - 1; i++) {
                    assertThat(batches.get(i)).hasSize(i == 0 ? PeerSelection.firstBatchSize(n)
                            : PeerSelection.batchSize(n));
                }
            }
        }
    }

    @Test
    @DisplayName("the same seed gives the same order; different seeds give different orders")
    void determinism() {
        List<Peer> nodes = cluster(50, 5);
        Peer self = nodes.get(0);
        for (boolean spread : new boolean[] {false, true}) {
            assertThat(PeerSelection.order(self, nodes, new SplittableRandom(42), spread))
                    .isEqualTo(PeerSelection.order(self, nodes, new SplittableRandom(42), spread));
            Set<List<Peer>> orders = new HashSet<>();
            for (long seed = 0; seed < 10; seed++) {
                orders.add(PeerSelection.order(self, nodes, new SplittableRandom(seed), spread));
            }
            assertThat(orders).as("spread=%s", spread).hasSizeGreaterThan(5);
        }
    }

    @Test
    @DisplayName("without spreading, every peer is picked first about equally often")
    void uniform() {
        List<Peer> nodes = cluster(11, 0);
        Map<String, Integer> firsts = new HashMap<>();
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 10_000; i++) {
            firsts.merge(PeerSelection.pick(nodes.get(0), nodes, random, false).get(0).name(), 1, Integer::sum);
        }
        assertThat(firsts).hasSize(10).doesNotContainKey("node-0");
        assertThat(firsts.values()).allSatisfy(c -> assertThat(c).isBetween(850, 1150));
    }

    @Test
    @DisplayName("spread over domains: each prefix of other-domain peers is balanced, own domain last")
    void domainSpread() {
        List<Peer> nodes = cluster(100, 4); // racks 0..3, 25 nodes each
        Peer self = nodes.get(0); // rack-0
        for (long seed = 0; seed < 20; seed++) {
            List<Peer> order = PeerSelection.order(self, nodes, new SplittableRandom(seed), true);
            List<Peer> others = order.subList(0, 75);
            assertThat(others).allSatisfy(p -> assertThat(p.failureDomain()).isNotEqualTo(self.failureDomain()));
            assertThat(order.subList(75, 99)).allSatisfy(p -> assertThat(p.failureDomain())
                    .isEqualTo(self.failureDomain()));
            for (int prefix = 1; prefix <= others.size(); prefix++) {
                Map<Optional<String>, Long> counts = others.subList(0, prefix).stream()
                        .collect(Collectors.groupingBy(Peer::failureDomain, Collectors.counting()));
                long max = counts.values().stream().mapToLong(Long::longValue).max().orElse(0);
                long min = counts.size() < 3 ? 0 : counts.values().stream().mapToLong(Long::longValue).min().orElse(0);
                assertThat(max - min).as("seed %d prefix %d: %s", seed, prefix, counts).isLessThanOrEqualTo(1);
            }
            List<Peer> first = PeerSelection.pick(self, nodes, new SplittableRandom(seed), true);
            assertThat(first).hasSize(10);
            assertThat(first.stream().map(Peer::failureDomain).distinct()).hasSize(3);
        }
    }

    @Test
    @DisplayName("uneven domains: the small domain is used up first, then the rest round-robin; unlabelled peers form one domain")
    void unevenDomains() {
        List<Peer> nodes = new ArrayList<>();
        nodes.add(Peer.of("self", "a"));
        nodes.add(Peer.of("a1", "a"));
        nodes.add(Peer.of("b1", "b"));
        for (int i = 0; i < 5; i++) {
            nodes.add(Peer.of("c" + i, "c"));
            nodes.add(Peer.of("u" + i));
        }
        List<Peer> order = PeerSelection.order(nodes.get(0), nodes, new SplittableRandom(1), true);
        assertThat(order).hasSize(12);
        assertThat(order.get(order.size() - 1).name()).isEqualTo("a1");
        assertThat(order.subList(0, 3).stream().map(p -> p.failureDomain().orElse("?")).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("b", "c", "?");
        Peer unlabelledSelf = Peer.of("self");
        List<Peer> noOwn = PeerSelection.order(unlabelledSelf, nodes.subList(1, nodes.size()),
                new SplittableRandom(1), true);
        assertThat(noOwn).hasSize(12);
        assertThat(noOwn.subList(0, 4).stream().map(p -> p.failureDomain().orElse("?")).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("a", "b", "c", "?");
    }

    @Test
    @DisplayName("self may be missing from the node list; duplicate names and bad sizes are refused")
    void validation() {
        List<Peer> nodes = cluster(5, 0);
        assertThat(PeerSelection.order(Peer.of("elsewhere"), nodes, new SplittableRandom(1), false)).hasSize(5);
        List<Peer> dup = new ArrayList<>(nodes);
        dup.add(Peer.of("node-1"));
        assertThatThrownBy(() -> PeerSelection.order(nodes.get(0), dup, new SplittableRandom(1), false))
                .hasMessageContaining("node-1");
        assertThatThrownBy(() -> PeerSelection.batchSize(0)).hasMessageContaining("clusterSize");
        assertThatThrownBy(() -> Peer.of(" ")).hasMessageContaining("name");
        assertThatThrownBy(() -> Peer.of("n", "")).hasMessageContaining("failureDomain");
        assertThat(PeerSelection.pick(Peer.of("solo"), List.of(Peer.of("solo")), new SplittableRandom(1), true))
                .isEmpty();
    }
}
