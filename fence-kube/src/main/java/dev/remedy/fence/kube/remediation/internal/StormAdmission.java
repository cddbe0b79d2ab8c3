package dev.remedy.fence.kube.remediation.internal;

import dev.remedy.core.storm.Admission;
import dev.remedy.core.storm.NodeView;
import dev.remedy.core.storm.PoolView;
import dev.remedy.core.storm.QuorumGuard;
import dev.remedy.core.storm.StormGuard;
import dev.remedy.core.storm.StormListener;
import dev.remedy.core.storm.StormSettings;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Storm protection for remediation resources: one {@link StormGuard} over the pool of every Node, in which a node is
 * unhealthy when it is not Ready or a remediation asks to fence it, and remediating while its remediation's flow
 * runs. Thread-safe (the guard is).
 */
public final class StormAdmission {

    private static final Set<String> CONTROL_PLANE_LABELS = Set.of("node-role.kubernetes.io/control-plane",
            "node-role.kubernetes.io/master");

    private final StormGuard guard;

    /** Protection with {@code settings}, its quiet period running from {@code started}. */
    public StormAdmission(StormSettings settings, RandomGenerator random, StormListener listener, Instant started) {
        this.guard = new StormGuard(settings, random, QuorumGuard.oneAtATime(), listener);
        guard.started(started);
    }

    /**
     * The answer for one node: held back, or admitted with the fence-race delay its flow must add to its hold.
     *
     * @param heldBack  the rule (its setting's name) and what it counted; empty when admitted
     * @param raceDelay the fence-race delay of an admitted fence (zero when held back)
     */
    public record Verdict(Optional<String> heldBack, Duration raceDelay) {
    }

    /**
     * Whether {@code node} may be fenced now; if so, the fence is recorded.
     *
     * @param nodes       every Node
     * @param requested   the nodes a remediation resource asks to fence
     * @param remediating the nodes whose remediation's flow runs
     * @return held back with the rule and what it counted, or admitted with its fence-race delay
     */
    public Verdict admit(String node, Collection<Node> nodes, Set<String> requested, Set<String> remediating,
                         Instant now) {
        List<NodeView> views = new ArrayList<>(nodes.size());
        for (Node n : nodes) {
            String name = n.getMetadata().getName();
            Map<String, String> labels = n.getMetadata().getLabels() == null ? Map.of() : n.getMetadata().getLabels();
            boolean controlPlane = labels.keySet().stream().anyMatch(CONTROL_PLANE_LABELS::contains);
            views.add(new NodeView(name, controlPlane, !ready(n) || requested.contains(name),
                    remediating.contains(name), false, Optional.empty(), 0));
        }
        Admission admission = guard.admitAndRecord(node, PoolView.of(views).withRemediating(remediating), now);
        if (admission instanceof Admission.Denied denied) {
            return new Verdict(Optional.of("storm protection holds it back, rule " + denied.reason().property() + ": "
                    + denied.detail()), Duration.ZERO);
        }
        return new Verdict(Optional.empty(), ((Admission.Admitted) admission).raceDelay());
    }

    /** The flow of {@code node} is over. */
    public void finished(String node) {
        guard.recordFinished(node);
    }

    private static boolean ready(Node node) {
        return node.getStatus() != null && node.getStatus().getConditions() != null && node.getStatus()
                .getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
