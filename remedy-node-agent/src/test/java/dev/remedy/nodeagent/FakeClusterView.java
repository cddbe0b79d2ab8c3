package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.core.rules.PeerAnswer;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An API server in memory: the nodes, a remediation per node, and a switch that makes every read fail. */
final class FakeClusterView implements ClusterView {

    private final List<PeerNode> nodes = new ArrayList<>();
    private final Map<String, String> remediations = new java.util.HashMap<>();
    private volatile boolean down;
    final List<Instant> reports = new ArrayList<>();
    volatile WatchdogMode reportedMode;

    FakeClusterView node(String name, Map<String, String> labels) {
        nodes.add(new PeerNode(name, labels, Optional.of("127.0.0.1")));
        return this;
    }

    void remediate(String node) {
        remediations.put(node, "NodeFence " + node);
    }

    void down(boolean down) {
        this.down = down;
    }

    @Override
    public SelfReport check(String node, Instant bootTime) throws IOException {
        failIfDown();
        Map<String, String> labels = nodes.stream().filter(n -> n.name().equals(node)).findFirst()
                .map(PeerNode::labels).orElse(Map.of());
        return new SelfReport(Optional.ofNullable(remediations.get(node)), labels, nodes);
    }

    @Override
    public PeerAnswer judge(String node, Instant bootTime) throws IOException {
        failIfDown();
        return remediations.containsKey(node) ? PeerAnswer.UNHEALTHY : PeerAnswer.HEALTHY;
    }

    @Override
    public synchronized void report(String node, WatchdogMode mode, Optional<Duration> timeout, Instant renewed)
            throws IOException {
        failIfDown();
        reports.add(renewed);
        reportedMode = mode;
    }

    private void failIfDown() throws IOException {
        if (down) {
            throw new IOException("connection refused");
        }
    }
}
