package dev.remedy.core.engine;

import dev.remedy.core.flow.ClusterAction;
import dev.remedy.core.flow.Effect;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.ReleaseStrategy;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.PlanSource;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the effects of a flow: a cluster action through {@link ClusterOperations}, an agent action through the
 * agent of the node's plan. Every outcome, failures included, comes back as the {@link Observation.Completed} the
 * flow applies; nothing is thrown. Thread-safe.
 */
final class OperationRunner {

    /** Logs under the engine's name, which is what operators configure. */
    private static final Logger LOG = LoggerFactory.getLogger(FenceEngine.class);
    /** One shared detail per cluster action: records and history keep thousands of them. */
    private static final Map<ClusterAction, String> CLUSTER_DONE = Arrays.stream(ClusterAction.values())
            .collect(Collectors.toUnmodifiableMap(a -> a, a -> "cluster " + a.code() + " done"));

    private final ClusterOperations cluster;
    private final FenceAgentRegistry agents;
    private final PlanSource plans;
    private final TimeSource time;
    private final ReleaseStrategy releaseStrategy;
    /** The release strategy of particular nodes (null or empty: {@link #releaseStrategy}). */
    private final Function<String, Optional<ReleaseStrategy>> perNode;
    private final EffectGuard guard;

    OperationRunner(ClusterOperations cluster, FenceAgentRegistry agents, PlanSource plans, TimeSource time,
                    ReleaseStrategy releaseStrategy, Function<String, Optional<ReleaseStrategy>> perNode,
                    EffectGuard guard) {
        this.cluster = cluster;
        this.agents = agents;
        this.plans = plans;
        this.time = time;
        this.releaseStrategy = releaseStrategy;
        this.perNode = perNode != null ? perNode : node -> Optional.empty();
        this.guard = guard;
    }

    /** Whether the effect guard refuses {@code effect} now (a guard that throws refuses); a refusal is logged. */
    boolean refused(Effect effect) {
        Optional<String> refusal;
        try {
            refusal = guard.refusal(effect);
        } catch (RuntimeException e) {
            refusal = Optional.of("the effect guard failed: " + e);
        }
        refusal.ifPresent(why -> LOG.warn("operation {} of node {} not run, it stays in flight: {}",
                effect.operationId(), effect.node(), why));
        return refusal.isPresent();
    }

    /** Runs a cluster action (blocking). */
    Observation.Completed cluster(Effect.RunCluster c) {
        try {
            runCluster(c.node(), c.action());
            return new Observation.Completed(c.operationId(), FenceStatus.SUCCEEDED, PowerState.UNKNOWN,
                    CLUSTER_DONE.get(c.action()));
        } catch (RuntimeException e) {
            return failed(c, e);
        }
    }

    /** The result of an effect that failed with {@code error}. */
    static Observation.Completed failed(Effect effect, Throwable error) {
        if (error instanceof CancellationException) {
            return new Observation.Completed(effect.operationId(), FenceStatus.FAILED, PowerState.UNKNOWN,
                    "interrupted: the engine is stopping");
        }
        LOG.warn("operation {} of node {} failed", effect.operationId(), effect.node(), error);
        return new Observation.Completed(effect.operationId(), FenceStatus.FAILED, PowerState.UNKNOWN,
                error.getClass().getSimpleName() + ": " + error.getMessage());
    }

    private void runCluster(String node, ClusterAction action) {
        ReleaseStrategy releaseStrategy = perNode.apply(node).orElse(this.releaseStrategy);
        switch (action) {
            case ISOLATE -> {
                cluster.cordon(node);
                cluster.addTaint(node, Taint.FENCING);
            }
            case RELEASE_WORKLOADS -> {
                if (releaseStrategy == ReleaseStrategy.DELETE_NODE) {
                    cluster.deletePods(node);
                    cluster.deleteNode(node);
                } else {
                    cluster.addTaint(node, Taint.OUT_OF_SERVICE);
                    cluster.deletePods(node);
                }
                // released only once no pod is terminating and no volume is attached: replacements may start
                cluster.awaitWorkloadsReleased(node);
            }
            case RELEASE_PODS -> {
                cluster.deletePods(node);
                cluster.awaitWorkloadsReleased(node);
            }
            case LIFT_OUT_OF_SERVICE -> {
                if (releaseStrategy == ReleaseStrategy.DELETE_NODE) {
                    cluster.restoreNode(node);
                } else {
                    cluster.removeTaint(node, Taint.OUT_OF_SERVICE);
                }
            }
            case RECOVER -> {
                cluster.removeTaint(node, Taint.FENCING);
                cluster.uncordon(node);
            }
        }
    }

    /**
     * Runs an agent action through {@link FenceAgent#executeAsync}. A blocking agent runs right here on the
     * engine's thread (the executor given to it runs tasks in place), so its future is done on return; an agent
     * with its own non-blocking I/O returns at once and frees the thread while the BMC answers.
     */
    CompletableFuture<Observation.Completed> agent(Effect.RunAgent a, Duration budget) {
        FenceAgent agent;
        ResolvedMethod method;
        try {
            NodePlan plan = plans.plan(a.node()).orElseThrow(() ->
                    new IllegalStateException("the fence plan of node " + a.node() + " disappeared"));
            method = plan.step(a.step()).levels().get(a.level()).get(a.method());
            // through the registry: the agent's outcomes, errors and progress mask every configured secret
            agent = agents.create(method.config());
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failed(a, e));
        }
        FenceContext context = FenceContext.start(time, budget,
                message -> LOG.debug("{} {}: {}", a.node(), a.operationId(), message));
        CompletableFuture<FenceOutcome> outcome;
        try {
            outcome = agent.executeAsync(new FenceRequest(a.action(), "remedy-engine/" + a.node()), context,
                    Runnable::run);
        } catch (RuntimeException e) {
            agent.close();
            return CompletableFuture.completedFuture(failed(a, e));
        }
        return outcome.handle((done, error) -> {
            agent.close();
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause()
                    : error;
            return cause != null ? failed(a, cause) : new Observation.Completed(a.operationId(), done.status(),
                    done.power(), method.name() + ": " + done.detail());
        });
    }
}
