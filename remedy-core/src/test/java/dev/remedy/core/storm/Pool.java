package dev.remedy.core.storm;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/** Builds pool views for tests: nodes are named {@code node-0000}, {@code node-0001}, ... in the order added. */
final class Pool {

    static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");

    private final List<NodeView> nodes = new ArrayList<>();

    static Pool create() {
        return new Pool();
    }

    /** Settings where no rule applies unless a test turns it on (minHealthy 0%). */
    static StormSettings.Builder permissive() {
        return base().minHealthy("0%");
    }

    /** {@link #permissive()} with a minHealthy threshold. */
    static StormSettings.Builder permissiveMinHealthy(String threshold) {
        return base().minHealthy(threshold);
    }

    /** {@link #permissive()} with a maxUnhealthy threshold instead. */
    static StormSettings.Builder permissiveMaxUnhealthy(String threshold) {
        return base().maxUnhealthy(threshold);
    }

    private static StormSettings.Builder base() {
        return StormSettings.custom().quietPeriod(Duration.ZERO).stormCooldown(Duration.ZERO)
                .maxConcurrent(Integer.MAX_VALUE).oneControlPlaneAtATime(false).noFenceRateLimit()
                .noPodDeletionRateLimit().maxDisconnectedShare(1.0);
    }

    /** A guard with {@code settings}, a seeded random generator, and started at {@link #T0}. */
    static StormGuard guard(StormSettings settings, QuorumGuard quorum, StormListener listener) {
        StormGuard guard = new StormGuard(settings, new SplittableRandom(7), quorum, listener);
        guard.started(T0);
        return guard;
    }

    static StormGuard guard(StormSettings settings) {
        return guard(settings, (node, pool) -> Optional.empty(), StormListener.NONE);
    }

    String next() {
        return String.format("node-%04d", nodes.size());
    }

    Pool add(NodeView node) {
        nodes.add(node);
        return this;
    }

    Pool healthy(int count) {
        return many(count, false, false, false, false, null);
    }

    Pool unhealthy(int count) {
        return many(count, false, true, false, false, null);
    }

    Pool remediating(int count) {
        return many(count, false, true, true, false, null);
    }

    Pool disconnected(int count) {
        return many(count, false, true, false, true, null);
    }

    Pool controlPlane(int healthy, int unhealthy, int remediating) {
        many(healthy, true, false, false, false, null);
        many(unhealthy, true, true, false, false, null);
        return many(remediating, true, true, true, false, null);
    }

    Pool domain(String value, int healthy, int unhealthy) {
        many(healthy, false, false, false, false, value);
        return many(unhealthy, false, true, false, false, value);
    }

    private Pool many(int count, boolean controlPlane, boolean unhealthy, boolean remediating, boolean disconnected,
                      String domain) {
        for (int i = 0; i < count; i++) {
            nodes.add(new NodeView(next(), controlPlane, unhealthy, remediating, disconnected,
                    Optional.ofNullable(domain), 0));
        }
        return this;
    }

    /** The first node that is unhealthy and not remediating (the usual candidate). */
    String candidate() {
        return nodes.stream().filter(n -> n.unhealthy() && !n.remediating()).findFirst().orElseThrow().name();
    }

    /** The first unhealthy, not remediating node of {@code domain}. */
    String candidateIn(String domain) {
        return nodes.stream().filter(n -> n.unhealthy() && !n.remediating())
                .filter(n -> n.failureDomain().equals(Optional.of(domain))).findFirst().orElseThrow().name();
    }

    /** The first unhealthy, not remediating worker node. */
    String workerCandidate() {
        return nodes.stream().filter(n -> !n.controlPlane() && n.unhealthy() && !n.remediating()).findFirst()
                .orElseThrow().name();
    }

    /** The first unhealthy, not remediating control-plane node. */
    String controlPlaneCandidate() {
        return nodes.stream().filter(n -> n.controlPlane() && n.unhealthy() && !n.remediating()).findFirst()
                .orElseThrow().name();
    }

    PoolView view() {
        return PoolView.of(nodes);
    }
}
