package dev.remedy.core.engine;

import dev.remedy.core.event.FenceEventListener;
import dev.remedy.core.event.FencingHistory;
import dev.remedy.core.event.internal.EventBus;
import dev.remedy.core.flow.ClusterAction;
import dev.remedy.core.flow.Effect;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceFlow;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation.AdminCommand;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.Operation;
import dev.remedy.core.flow.ReleaseStrategy;
import dev.remedy.core.flow.Transition;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.PlanSource;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs fence flows: one {@link NodeFence} per node, advanced by the pure {@link FenceFlow}.
 *
 * <p>For every observation the engine computes the transition under the node's lock, saves the new record
 * (write-ahead), publishes its events, and only then runs its effects on the executor. Results come back as
 * observations. After a crash, {@link #start()} reloads every record and issues again the operation each one had in
 * flight; operations are idempotent, so the flow goes on without fencing twice.
 *
 * <p>Thread-safe. Call {@link #tick()} periodically (a reconcile pass) and {@link #observe} when a node's readiness
 * changes.
 */
public final class FenceEngine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FenceEngine.class);
    private static final int LOCK_STRIPES = 256;
    /** One shared detail per cluster action: records and history keep thousands of them. */
    private static final Map<ClusterAction, String> CLUSTER_DONE = java.util.Arrays.stream(ClusterAction.values())
            .collect(java.util.stream.Collectors.toUnmodifiableMap(a -> a,
                    a -> "cluster " + a.name().toLowerCase(java.util.Locale.ROOT) + " done"));

    private final FenceFlow flow;
    private final FenceStateStore store;
    private final ClusterOperations cluster;
    private final FenceAgentRegistry agents;
    private final PlanSource plans;
    private final TimeSource time;
    private final Executor executor;
    private final ExecutorService ownedExecutor;
    private final EventBus bus = new EventBus();
    private final FencingHistory history;
    private final Map<String, NodeFence> records = new ConcurrentHashMap<>();
    /** The last plan problem reported per node: a missing plan is reported once, not at every tick. */
    private final Map<String, String> planProblems = new ConcurrentHashMap<>();
    /** Striped locks: a node's transitions are serialized without a lock object per node ever seen. */
    private final Object[] locks = new Object[LOCK_STRIPES];

    private FenceEngine(Builder b) {
        this.flow = new FenceFlow(b.settings);
        this.store = Objects.requireNonNull(b.store, "store");
        this.cluster = Objects.requireNonNull(b.cluster, "cluster");
        this.agents = Objects.requireNonNull(b.agents, "agents");
        this.plans = Objects.requireNonNull(b.plans, "plans");
        this.time = Objects.requireNonNull(b.time, "time");
        this.ownedExecutor = b.executor == null ? Executors.newFixedThreadPool(b.threads, daemonThreads()) : null;
        this.executor = b.executor != null ? b.executor : ownedExecutor;
        this.history = new FencingHistory(b.historyPerNode, b.historyOverall);
        java.util.Arrays.setAll(locks, i -> new Object());
        bus.subscribe(history);
        b.listeners.forEach(bus::subscribe);
    }

    /** A builder; store, cluster, agents and plans are required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Loads every record from the store and issues again the operations that were in flight when the previous
     * engine stopped. Call once, before anything else.
     */
    public void start() {
        for (NodeFence record : store.loadAll()) {
            records.put(record.node(), record);
        }
        store.problems().forEach(p -> LOG.warn("fence state store: {}", p));
        for (String node : List.copyOf(records.keySet())) {
            apply(node, new Observation.Recovered());
        }
    }

    /**
     * Starts a fence flow for {@code node}, unless one is active (then a {@link FenceEvent.Refused} is published).
     *
     * @return the node's record after the decision
     */
    public NodeFence decide(String node, String reason) {
        return decide(node, reason, Duration.ZERO);
    }

    /**
     * Starts a fence flow for {@code node} whose hold is longer by {@code raceDelay} (the fence-race delay storm
     * protection chose for it), unless one is active.
     *
     * @return the node's record after the decision
     */
    public NodeFence decide(String node, String reason, Duration raceDelay) {
        List<FenceEvent> events;
        synchronized (lock(node)) {
            NodeFence current = records.get(node);
            if (current != null && !current.isSettled()) {
                events = List.of(new FenceEvent.Refused(node, time.instant(), "node " + node
                        + " is already in a fence flow (" + current.state() + "); decision '" + reason + "' ignored"));
            } else if (current != null && current.gaveUp()) {
                events = List.of(new FenceEvent.Refused(node, time.instant(), "node " + node
                        + " gave up in ERROR; an admin must clear it before remedy touches it again"));
            } else {
                Transition t = flow.decide(node, time.instant(), reason, Optional.ofNullable(current), raceDelay);
                records.put(node, store.save(t.record()));
                events = t.events();
            }
        }
        events.forEach(bus::publish);
        apply(node, new Observation.Tick());
        return records.get(node);
    }

    /** Reports the node's readiness. */
    public void observe(String node, Observation.Readiness readiness) {
        apply(node, readiness);
    }

    /** A reconcile pass: every active flow checks its timers and deadlines. */
    public void tick() {
        Instant now = time.instant();
        for (NodeFence record : records.values()) {
            if (due(record, now)) {
                apply(record.node(), new Observation.Tick());
            }
        }
    }

    /** Stops starting operations for {@code node} until {@link #resume}. */
    public void pause(String node, String actor) {
        admin(node, AdminCommand.PAUSE, actor);
    }

    /** Resumes a paused flow; its deadlines are shifted by the pause. */
    public void resume(String node, String actor) {
        admin(node, AdminCommand.RESUME, actor);
    }

    /** Ends the flow now. */
    public void forceStop(String node, String actor) {
        admin(node, AdminCommand.FORCE_STOP, actor);
    }

    /** Closes a flow that gave up in ERROR. */
    public void clearError(String node, String actor) {
        admin(node, AdminCommand.CLEAR_ERROR, actor);
    }

    /** Records an admin's statement that the node is powered off. */
    public void confirmOff(String node, String actor) {
        admin(node, AdminCommand.CONFIRM_OFF, actor);
    }

    /** The record of {@code node}, if any. */
    public Optional<NodeFence> record(String node) {
        return Optional.ofNullable(records.get(node));
    }

    /** Every record. */
    public Collection<NodeFence> records() {
        return List.copyOf(records.values());
    }

    /** The bounded history of finished operations. */
    public FencingHistory history() {
        return history;
    }

    /** Adds an event listener; a throwing listener changes nothing. */
    public void subscribe(FenceEventListener listener) {
        bus.subscribe(listener);
    }

    /** Stops the executor the engine created (an injected executor is left alone). */
    @Override
    public void close() {
        if (ownedExecutor != null) {
            ownedExecutor.shutdownNow();
        }
    }

    private void admin(String node, AdminCommand command, String actor) {
        if (!records.containsKey(node)) {
            bus.publish(new FenceEvent.Refused(node, time.instant(), "no fence flow for node " + node + "; "
                    + command.name().toLowerCase(java.util.Locale.ROOT) + " ignored"));
            return;
        }
        apply(node, new Observation.Admin(command, actor));
    }

    /** Whether a tick could change {@code record} now. */
    private boolean due(NodeFence record, Instant now) {
        return flow.nextWake(record).filter(wake -> !now.isBefore(wake)).isPresent();
    }

    private void apply(String node, Observation observation) {
        List<Effect> effects;
        List<FenceEvent> events;
        synchronized (lock(node)) {
            NodeFence current = records.get(node);
            if (current == null) {
                return;
            }
            Optional<NodePlan> plan;
            String problem;
            try {
                plan = plans.plan(node);
                problem = plan.isPresent() ? null : "no fence plan covers node " + node
                        + "; add a topology for it to the fence configuration";
            } catch (RuntimeException e) {
                plan = Optional.empty();
                problem = "the fence plan of node " + node + " cannot be built: " + e.getMessage();
            }
            if (plan.isEmpty()) {
                boolean reported = problem.equals(planProblems.put(node, problem));
                effects = List.of();
                events = reported ? List.of() : List.of(new FenceEvent.Refused(node, time.instant(), problem));
            } else {
                planProblems.remove(node);
                Transition t = flow.apply(current, plan.get(), observation, time.instant());
                if (!t.record().equals(current)) {
                    records.put(node, store.save(t.record()));
                }
                effects = t.effects();
                events = t.events();
            }
        }
        events.forEach(bus::publish);
        for (Effect effect : effects) {
            executor.execute(new OperationTask(node, effect.operationId(), () -> perform(effect)));
        }
    }

    /**
     * Runs an operation if its record still has it in flight, within what is left of its budget counted from when
     * it was issued: an operation that waited in the executor past the point where the flow counts it as lost
     * must not touch the machine any more.
     */
    private void perform(Effect effect) {
        Optional<Operation> current = Optional.ofNullable(records.get(effect.node()))
                .flatMap(NodeFence::inFlight).filter(op -> op.id().equals(effect.operationId()));
        if (current.isEmpty()) {
            LOG.debug("operation {} of node {} is no longer in flight; not run", effect.operationId(), effect.node());
            return;
        }
        Duration left = Duration.between(time.instant(), current.get().issuedAt().plus(current.get().budget()));
        if (left.isNegative() || left.isZero()) {
            apply(effect.node(), new Observation.Completed(effect.operationId(), FenceStatus.TIMED_OUT,
                    PowerState.UNKNOWN, "waited " + current.get().budget() + " in the executor's queue; not run"));
        } else if (effect instanceof Effect.RunAgent a) {
            CompletableFuture<Observation.Completed> result = runAgent(a, left);
            if (result.isDone()) {
                apply(a.node(), result.join());
            } else {
                result.thenAccept(done -> executor.execute(new OperationTask(a.node(), a.operationId(),
                        () -> apply(a.node(), done))));
            }
        } else {
            apply(effect.node(), run(effect, left));
        }
    }

    private Observation.Completed run(Effect effect, Duration budget) {
        try {
            Effect.RunCluster c = (Effect.RunCluster) effect;
            runCluster(c.node(), c.action());
            return new Observation.Completed(c.operationId(), FenceStatus.SUCCEEDED, PowerState.UNKNOWN,
                    CLUSTER_DONE.get(c.action()));
        } catch (RuntimeException e) {
            return failed(effect, e);
        }
    }

    private static Observation.Completed failed(Effect effect, Throwable error) {
        if (error instanceof CancellationException) {
            return new Observation.Completed(effect.operationId(), FenceStatus.FAILED, PowerState.UNKNOWN,
                    "interrupted: the engine is stopping");
        }
        LOG.warn("operation {} of node {} failed", effect.operationId(), effect.node(), error);
        return new Observation.Completed(effect.operationId(), FenceStatus.FAILED, PowerState.UNKNOWN,
                error.getClass().getSimpleName() + ": " + error.getMessage());
    }

    private void runCluster(String node, ClusterAction action) {
        switch (action) {
            case ISOLATE -> {
                cluster.cordon(node);
                cluster.addTaint(node, Taint.FENCING);
            }
            case RELEASE_WORKLOADS -> {
                if (flow.settings().releaseStrategy() == ReleaseStrategy.DELETE_NODE) {
                    cluster.deletePods(node);
                    cluster.deleteNode(node);
                } else {
                    cluster.addTaint(node, Taint.OUT_OF_SERVICE);
                    cluster.deletePods(node);
                }
            }
            case LIFT_OUT_OF_SERVICE -> {
                if (flow.settings().releaseStrategy() == ReleaseStrategy.DELETE_NODE) {
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
    private CompletableFuture<Observation.Completed> runAgent(Effect.RunAgent a, Duration budget) {
        FenceAgent agent;
        ResolvedMethod method;
        try {
            NodePlan plan = plans.plan(a.node()).orElseThrow(() ->
                    new IllegalStateException("the fence plan of node " + a.node() + " disappeared"));
            method = plan.step(a.step()).levels().get(a.level()).get(a.method());
            agent = agents.provider(method.agentType()).create(method.config());
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

    private Object lock(String node) {
        return locks[Math.floorMod(node.hashCode(), LOCK_STRIPES)];
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        java.util.concurrent.ThreadFactory base = Executors.defaultThreadFactory();
        return runnable -> {
            Thread thread = base.newThread(runnable);
            thread.setDaemon(true);
            thread.setName("remedy-engine-" + thread.getName());
            return thread;
        };
    }

    /** Builds a {@link FenceEngine}. */
    public static final class Builder {
        private FenceStateStore store;
        private ClusterOperations cluster;
        private FenceAgentRegistry agents;
        private PlanSource plans;
        private FlowSettings settings = FlowSettings.ofDefaults();
        private TimeSource time = TimeSource.system();
        private Executor executor;
        private int threads = 8;
        private int historyPerNode = FencingHistory.DEFAULT_PER_NODE;
        private int historyOverall = FencingHistory.DEFAULT_OVERALL;
        private final List<FenceEventListener> listeners = new java.util.ArrayList<>();

        private Builder() {
        }

        /** Where records are persisted. */
        public Builder store(FenceStateStore value) {
            this.store = value;
            return this;
        }

        /** The cluster port. */
        public Builder cluster(ClusterOperations value) {
            this.cluster = value;
            return this;
        }

        /** The agents, by type id. */
        public Builder agents(FenceAgentRegistry value) {
            this.agents = value;
            return this;
        }

        /** The fence plan of each node. */
        public Builder plans(PlanSource value) {
            this.plans = value;
            return this;
        }

        /** Flow timing and limits. */
        public Builder settings(FlowSettings value) {
            this.settings = Objects.requireNonNull(value, "settings");
            return this;
        }

        /** The clock. */
        public Builder time(TimeSource value) {
            this.time = value;
            return this;
        }

        /** Runs operations; default: a fixed pool of {@link #threads(int)} daemon threads owned by the engine. */
        public Builder executor(Executor value) {
            this.executor = value;
            return this;
        }

        /** Size of the default executor. */
        public Builder threads(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("threads must be >= 1, was " + value);
            }
            this.threads = value;
            return this;
        }

        /** Bounds of the fencing history. */
        public Builder history(int perNode, int overall) {
            this.historyPerNode = perNode;
            this.historyOverall = overall;
            return this;
        }

        /** Adds an event listener. */
        public Builder listener(FenceEventListener value) {
            listeners.add(value);
            return this;
        }

        /** The engine; call {@link FenceEngine#start()} next. */
        public FenceEngine build() {
            return new FenceEngine(this);
        }
    }
}
