package dev.remedy.fence.kube.remediation;

import dev.remedy.core.flow.ReleaseStrategy;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.PlanSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fence plans and release strategies that NodeFenceRemediations ask for, by node: an overlay the engine consults
 * before the operator's fence topology ({@link #over(PlanSource)}, {@link #release(String)}). The
 * {@link RemediationController} adds a node's entry when it starts the node's flow and removes it only once that flow
 * is settled, so the engine undoes a release the way it was done. The overlay lives in memory: after a restart or a
 * failover the controller makes each unsettled flow's entry again from its remediation's spec (the engine recovers
 * such a flow at its first tick with a plan). Thread-safe; one per operator, shared by its terms.
 */
public final class RemediationPlans {

    private record Entry(NodePlan plan, ReleaseStrategy release) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /** An empty overlay. */
    public RemediationPlans() {
    }

    /** A plan source answering with a remediation's plan for its node, and with {@code topology} for the others. */
    public PlanSource over(PlanSource topology) {
        Objects.requireNonNull(topology, "topology");
        return node -> {
            Entry entry = entries.get(node);
            return entry != null ? Optional.of(entry.plan()) : topology.plan(node);
        };
    }

    /** The release strategy a remediation chose for {@code node}, if one did. */
    public Optional<ReleaseStrategy> release(String node) {
        return Optional.ofNullable(entries.get(node)).map(Entry::release);
    }

    /** The nodes with an entry. */
    Set<String> nodes() {
        return Set.copyOf(entries.keySet());
    }

    void put(String node, NodePlan plan, ReleaseStrategy release) {
        entries.put(node, new Entry(plan, release));
    }

    void remove(String node) {
        entries.remove(node);
    }
}
