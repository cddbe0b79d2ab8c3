package dev.remedy.core.engine;

import dev.remedy.core.engine.Backlog.Work;
import dev.remedy.core.event.FenceEventListener;
import dev.remedy.core.event.FencingHistory;
import dev.remedy.core.event.internal.EventBus;
import dev.remedy.core.flow.Effect;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceFlow;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation.AdminCommand;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.Operation;
import dev.remedy.core.flow.ReleaseStrategy;
import dev.remedy.core.plan.PlanSource;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.core.time.Deadlines;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
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

    private final FenceFlow flow;
    private final FenceStateStore store;
    private final PlanSource plans;
    private final OperationRunner operations;
    private final TimeSource time;
    private final Executor executor;
    private final ExecutorService ownedExecutor;
    private final EventBus bus = new EventBus();
    private final FencingHistory history;
    private final Map<String, NodeFence> records = new ConcurrentHashMap<>();
    private final Steps steps;
    private final Backlog backlog = new Backlog();
    /** Striped locks: a node's transitions are serialized without a lock object per node ever seen. */
    private final Object[] locks = new Object[LOCK_STRIPES];

    private FenceEngine(Builder b) {
        FlowSettings settings = b.settings != null ? b.settings : FlowSettings.ofDefaults();
        this.flow = new FenceFlow(settings);
        this.store = b.store;
        this.plans = b.plans;
        this.time = b.time != null ? b.time : TimeSource.system();
        this.operations = new OperationRunner(b.cluster, b.agents, b.plans, time, settings.releaseStrategy(),
                b.releases, b.effectGuard != null ? b.effectGuard : EffectGuard.ALLOW_ALL);
        this.ownedExecutor = b.executor == null
                ? Executors.newFixedThreadPool(b.threads != null ? b.threads : Builder.DEFAULT_THREADS,
                        EngineThreads.FACTORY)
                : null;
        this.executor = b.executor != null ? b.executor : ownedExecutor;
        this.history = b.history != null ? b.history : new FencingHistory();
        this.steps = new Steps(flow, store, plans, time, records);
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
     * engine stopped. A node whose record the store can read in no version is held for an admin (an
     * {@link FenceEvent.Alert} says so). Call once, before anything else.
     */
    public void start() {
        for (NodeFence record : store.loadAll()) {
            records.put(record.node(), record);
        }
        store.problems().forEach(p -> LOG.warn("fence state store: {}", p));
        store.lostRecords().forEach((node, why) -> {
            if (!records.containsKey(node)) {
                submit(node, new Work.Hold(Steps.holdReason(why)));
            }
        });
        for (String node : List.copyOf(records.keySet())) {
            apply(node, new Observation.Recovered());
        }
    }

    /**
     * Starts a fence flow for {@code node}, unless one is active (then a {@link FenceEvent.Refused} is published).
     *
     * @return the node's record after the decision; empty if it could not be saved yet (the engine keeps trying,
     *         see {@link #unsavedNodes()})
     */
    public Optional<NodeFence> decide(String node, String reason) {
        return decide(node, reason, Duration.ZERO);
    }

    /**
     * Starts a fence flow for {@code node} whose hold is longer by {@code raceDelay} (the fence-race delay storm
     * protection chose for it), unless one is active.
     *
     * @return the node's record after the decision; empty if it could not be saved yet (the engine keeps trying,
     *         see {@link #unsavedNodes()})
     */
    public Optional<NodeFence> decide(String node, String reason, Duration raceDelay) {
        submit(node, new Work.Decide(reason, raceDelay));
        apply(node, new Observation.Tick());
        return Optional.ofNullable(records.get(node));
    }

    /** Reports the node's readiness. */
    public void observe(String node, Observation.Readiness readiness) {
        apply(node, readiness);
    }

    /**
     * A reconcile pass: active flows check their timers, work whose save failed is tried again after its backoff, and
     * a flow {@link #start()} could not recover for want of a plan is recovered once its plan is there.
     */
    public void tick() {
        Instant now = time.instant();
        backlog.due(now).forEach(this::retry);
        Set<String> unrecovered = steps.unrecovered();
        for (NodeFence record : records.values()) {
            if (due(record, now) || unrecovered.contains(record.node())) {
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

    /** The nodes whose record cannot be saved now: why, since when, next try (they wait; an Alert was published). */
    public Map<String, String> unsavedNodes() {
        return backlog.describe();
    }

    /** The bounded history of finished operations. */
    public FencingHistory history() {
        return history;
    }

    /** Adds an event listener; a throwing listener changes nothing. */
    public void subscribe(FenceEventListener listener) {
        bus.subscribe(listener);
    }

    /** Stops the engine's own executor (never an injected one); closes the store if it holds resources (files). */
    @Override
    public void close() {
        if (ownedExecutor != null) {
            ownedExecutor.shutdownNow();
        }
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("could not close the fence state store {}", store, e);
            }
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
        submit(node, new Work.Observe(observation));
    }

    /** Does {@code work} now, or keeps it behind the node's work that could not be saved yet. */
    private void submit(String node, Work work) {
        Step step;
        synchronized (lock(node)) {
            if (backlog.has(node)) {
                if (!backlog.add(node, work)) {
                    step = Step.of(List.of(new FenceEvent.Refused(node, time.instant(), "node " + node + " has "
                            + Backlog.MAX_WORK + " requests waiting for its record to be saved; " + work
                            + " refused: fix the fence state store")), List.of());
                } else {
                    return;
                }
            } else {
                step = steps.run(node, work);
                if (step.unsaved().isPresent()) {
                    backlog.add(node, work);
                    step = step.plus(failedSave(node, step.unsaved().get()));
                }
            }
        }
        publishAndRun(node, step);
    }

    /** Tries the node's waiting work again, in order, until it is done or a save fails again. */
    private void retry(String node) {
        Step all = Step.NONE;
        synchronized (lock(node)) {
            Optional<Work> next = backlog.next(node);
            while (next.isPresent()) {
                Step step = steps.run(node, next.get());
                all = all.plus(step);
                if (step.unsaved().isPresent()) {
                    all = all.plus(failedSave(node, step.unsaved().get()));
                    break;
                }
                backlog.done(node);
                next = backlog.next(node);
            }
            if (next.isEmpty()) {
                backlog.recovered(node).ifPresent(f -> LOG.info("the fence record of node {} saves again, after {}"
                        + " failed tries since {}", node, f.tries(), f.since()));
                all = all.plus(steps.run(node, new Work.Observe(new Observation.Tick())));
            }
        }
        publishAndRun(node, all);
    }

    /** Notes a failed save; the alert when it is the first of a run. */
    private Step failedSave(String node, String problem) {
        Instant now = time.instant();
        LOG.warn("could not save the fence record of node {}: {}; its flow stays where it was and is tried again",
                node, problem);
        if (!backlog.failed(node, now, problem)) {
            return Step.NONE;
        }
        return Step.of(List.of(new FenceEvent.Alert(node, now, "the fence record of node " + node + " cannot be "
                + "saved (" + problem + "): its flow waits where it was and the engine tries again, at least every "
                + Backlog.LONGEST_WAIT.toSeconds() + " s; fix the fence state store (free space, permissions)")),
                List.of());
    }

    private void publishAndRun(String node, Step step) {
        step.events().forEach(bus::publish);
        for (Effect effect : step.effects()) {
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
        if (operations.refused(effect)) {
            return;
        }
        Duration left = Duration.between(time.instant(), Deadlines.plus(current.get().issuedAt(), current.get().budget()));
        if (left.isNegative() || left.isZero()) {
            apply(effect.node(), new Observation.Completed(effect.operationId(), FenceStatus.TIMED_OUT,
                    PowerState.UNKNOWN, "waited " + current.get().budget() + " in the executor's queue; not run"));
        } else if (effect instanceof Effect.RunAgent a) {
            CompletableFuture<Observation.Completed> result = operations.agent(a, left);
            if (result.isDone()) {
                apply(a.node(), result.join());
            } else {
                result.thenAccept(done -> executor.execute(new OperationTask(a.node(), a.operationId(),
                        () -> apply(a.node(), done))));
            }
        } else {
            apply(effect.node(), operations.cluster((Effect.RunCluster) effect));
        }
    }

    private Object lock(String node) {
        return locks[Math.floorMod(node.hashCode(), LOCK_STRIPES)];
    }

    /**
     * Builds a {@link FenceEngine}. Store, cluster, agents and plans are required. Each setting may be given once,
     * and a setting that conflicts with one already given ({@link #executor} and {@link #threads}) is refused at the
     * call that conflicts, naming both: nothing is silently overridden.
     */
    public static final class Builder {
        /** The size of the engine's own pool when no executor is given. */
        public static final int DEFAULT_THREADS = 8;

        private FenceStateStore store;
        private ClusterOperations cluster;
        private FenceAgentRegistry agents;
        private PlanSource plans;
        private FlowSettings settings;
        private TimeSource time;
        private Executor executor;
        private Integer threads;
        private FencingHistory history;
        private EffectGuard effectGuard;
        private Function<String, Optional<ReleaseStrategy>> releases;
        private final List<FenceEventListener> listeners = new ArrayList<>();

        private Builder() {
        }

        /** Where records are persisted (required); {@link FenceEngine#close()} closes it. */
        public Builder store(FenceStateStore value) {
            requireUnset("store", store);
            this.store = Objects.requireNonNull(value, "store");
            return this;
        }

        /** The cluster port (required). */
        public Builder cluster(ClusterOperations value) {
            requireUnset("cluster", cluster);
            this.cluster = Objects.requireNonNull(value, "cluster");
            return this;
        }

        /** The agents, by type id (required). */
        public Builder agents(FenceAgentRegistry value) {
            requireUnset("agents", agents);
            this.agents = Objects.requireNonNull(value, "agents");
            return this;
        }

        /** The fence plan of each node (required). */
        public Builder plans(PlanSource value) {
            requireUnset("plans", plans);
            this.plans = Objects.requireNonNull(value, "plans");
            return this;
        }

        /** Flow timing and limits; default {@link FlowSettings#ofDefaults()}. */
        public Builder settings(FlowSettings value) {
            requireUnset("settings", settings);
            this.settings = Objects.requireNonNull(value, "settings");
            return this;
        }

        /** The clock; default {@link TimeSource#system()}. */
        public Builder time(TimeSource value) {
            requireUnset("time", time);
            this.time = Objects.requireNonNull(value, "time");
            return this;
        }

        /**
         * Runs operations, instead of a pool of {@link #threads(int)} daemon threads owned by the engine. The engine
         * never shuts down an executor it was given.
         */
        public Builder executor(Executor value) {
            requireUnset("executor", executor);
            requireState(threads == null, "threads was already set to %s, which sizes the engine's own pool; an executor"
                    + " replaces that pool: give either an executor or threads", threads);
            this.executor = Objects.requireNonNull(value, "executor");
            return this;
        }

        /** Size of the engine's own pool (default {@value #DEFAULT_THREADS}); not with {@link #executor}. */
        public Builder threads(int value) {
            requireUnset("threads", threads);
            requireState(executor == null, "executor was already set to %s, so the engine owns no pool for threads(%s)"
                    + " to size: give either an executor or threads", executor, value);
            if (value < 1) {
                throw new IllegalArgumentException("threads must be >= 1, was " + value);
            }
            this.threads = value;
            return this;
        }

        /** Bounds of the fencing history: finished operations kept per node and overall. */
        public Builder history(int perNode, int overall) {
            requireUnset("history", history);
            this.history = new FencingHistory(perNode, overall);
            return this;
        }

        /**
         * Asked right before each effect runs; a refused effect is not run and stays in flight (see
         * {@link EffectGuard}). Default {@link EffectGuard#ALLOW_ALL}.
         */
        public Builder effectGuard(EffectGuard value) {
            requireUnset("effectGuard", effectGuard);
            this.effectGuard = Objects.requireNonNull(value, "effectGuard");
            return this;
        }

        /** Per-node release strategies (empty: the settings'); the same answer from a release until its undo. */
        public Builder releaseStrategies(Function<String, Optional<ReleaseStrategy>> value) {
            requireUnset("releaseStrategies", releases);
            this.releases = Objects.requireNonNull(value, "releaseStrategies");
            return this;
        }

        /** Adds an event listener (may be called several times). */
        public Builder listener(FenceEventListener value) {
            listeners.add(Objects.requireNonNull(value, "listener"));
            return this;
        }

        /**
         * The engine; call {@link FenceEngine#start()} next.
         *
         * @throws IllegalStateException naming every required part that was not given
         */
        public FenceEngine build() {
            List<String> missing = new ArrayList<>();
            addIfMissing(missing, "store", store);
            addIfMissing(missing, "cluster", cluster);
            addIfMissing(missing, "agents", agents);
            addIfMissing(missing, "plans", plans);
            requireState(missing.isEmpty(), "a FenceEngine needs store, cluster, agents and plans; %s not set",
                    String.join(", ", missing) + (missing.size() == 1 ? " was" : " were"));
            return new FenceEngine(this);
        }

        private static void addIfMissing(List<String> missing, String name, Object value) {
            if (value == null) {
                missing.add(name);
            }
        }

        private static void requireUnset(String name, Object current) {
            requireState(current == null, "%s was already set to %s; set it once", name, current);
        }

        private static void requireState(boolean expression, String template, Object... args) {
            if (!expression) {
                throw new IllegalStateException(String.format(template, args));
            }
        }
    }
}
