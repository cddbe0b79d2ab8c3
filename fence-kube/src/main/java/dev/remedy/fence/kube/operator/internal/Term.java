package dev.remedy.fence.kube.operator.internal;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.policy.AdmissionGate;
import dev.remedy.core.policy.ExternalRemediations;
import dev.remedy.core.policy.IncrementalPolicyController;
import dev.remedy.core.policy.PolicyDecision;
import dev.remedy.core.policy.PolicySet;
import dev.remedy.core.policy.RemedyRunner;
import dev.remedy.fence.kube.ha.NodeRemediationLease;
import dev.remedy.fence.kube.watch.NodeWatcher;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the leader of a shard runs for one term and one set of policies: the policy controller, fed by a Node
 * informer, starting remedies on the term's engine, and the engine's periodic tick. A new set of policies makes a
 * new one (the informer lists the nodes again and the conditions' transition times keep their durations).
 */
public final class Term implements AutoCloseable {

    private final NodeWatcher watcher;
    private final ScheduledFuture<?> ticks;

    private Term(NodeWatcher watcher, ScheduledFuture<?> ticks) {
        this.watcher = watcher;
        this.ticks = ticks;
    }

    /**
     * Starts the controller of {@code policies} on {@code engine}: Nodes of {@code selector} watched, decisions to
     * {@code decisions}, starts admitted by {@code gate} and made only once the node's medik8s Lease is taken from
     * {@code leases}, external remedies through {@code external}, the engine ticked every {@code tick} on
     * {@code scheduler}.
     */
    public static Term start(FenceEngine engine, PolicySet policies, AdmissionGate gate, NodeRemediationLease leases,
                             ExternalRemediations external,
                             Consumer<PolicyDecision> decisions, Map<String, String> selector,
                             Function<IncrementalPolicyController, NodeWatcher.Builder> configure,
                             ScheduledExecutorService scheduler, Duration tick) {
        IncrementalPolicyController controller = new IncrementalPolicyController(policies.policies(),
                new LeasedRunner(RemedyRunner.of(engine, external), leases,
                        node -> engine.record(node).map(NodeFence::isSettled).orElse(true)), gate, decisions);
        NodeWatcher watcher = configure.apply(controller).engine(engine).labelSelector(selector).build();
        watcher.start();
        ScheduledFuture<?> ticks = scheduler.scheduleWithFixedDelay(engine::tick, tick.toMillis(), tick.toMillis(),
                TimeUnit.MILLISECONDS);
        return new Term(watcher, ticks);
    }

    /** Whether the Node informer has listed the nodes. */
    public boolean synced() {
        return watcher.hasSynced();
    }

    /** How many nodes the controller tracks. */
    public int tracked() {
        return watcher.tracked();
    }

    /** Stops watching and ticking; the engine is closed by the leadership. */
    @Override
    public void close() {
        ticks.cancel(false);
        watcher.close();
    }
}
