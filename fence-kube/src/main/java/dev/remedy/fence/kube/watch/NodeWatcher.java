package dev.remedy.fence.kube.watch;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.policy.IncrementalPolicyController;
import dev.remedy.core.policy.NodeStatus;
import dev.remedy.fence.kube.watch.internal.NodeConversion;
import dev.remedy.fence.kube.watch.internal.NodeState;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the cluster's Nodes to remedy: a fabric8 {@link SharedIndexInformer} on the host's client (optionally only
 * the nodes of a label selector: the shard) turns every add, update and resync into a {@link NodeStatus} for the
 * {@link IncrementalPolicyController} ({@code observe}; {@code forget} on delete) and the node's readiness for the
 * {@link FenceEngine}; a timer calls the controller's {@code advance}.
 *
 * <p><b>Threads.</b> The informer's thread only records the latest object of each node (so a burst of updates of one
 * node is one evaluation, and memory is bounded by the number of nodes); the controller is called on one executor,
 * under the watcher's lock: the watcher's own single thread, or a {@link ScheduledExecutorService} the host gives.
 * Code of the host that calls the same controller must go through {@link #withController}.
 *
 * <p><b>medik8s keys.</b> A node labelled {@value #EXCLUDE_LABEL}{@code =true} is never remediated: the controller
 * forgets it while the label is there (it leaves every pool; a remediation already running is not stopped by this,
 * stop it with the engine's admin commands). A node annotated {@value #CONFIRMED_HEALTHY} (any value), an
 * administrator's statement that it is healthy, is given to the controller without conditions: no remediation
 * starts, and a running one ends as for a healthy node (after the policy's healthy delay, which, unlike medik8s
 * NodeHealthCheck, is not skipped; an external remedy is cancelled then, a fence flow already started is not).
 * Once the node reports {@code Ready=True} and the controller holds no remediation for it, remedy removes the
 * annotation with a JSON patch (as NodeHealthCheck does once the node is healthy and its remediation is gone), so
 * that the statement lasts until the node is back and no longer; turn this off with
 * {@link Builder#removeConfirmedHealthy(boolean)}. The engine always gets the node's true readiness.
 */
public final class NodeWatcher implements AutoCloseable {

    /** medik8s' label that excludes a node from remediation (value {@code true}). */
    public static final String EXCLUDE_LABEL = "remediation.medik8s.io/exclude-from-remediation";
    /** medik8s' node annotation by which an administrator confirms the node is healthy. */
    public static final String CONFIRMED_HEALTHY = "remediation.medik8s.io/manually-confirmed-healthy";
    /** The default informer resync period. */
    public static final Duration DEFAULT_RESYNC = Duration.ofMinutes(10);
    /** The default period of the controller's {@code advance}. */
    public static final Duration DEFAULT_ADVANCE = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(NodeWatcher.class);
    private static final Object DELETED = new Object();
    private static final String REMOVE_CONFIRMED = "[{\"op\":\"remove\",\"path\":\"/metadata/annotations/"
            + CONFIRMED_HEALTHY.replace("/", "~1") + "\"}]";

    private final KubernetesClient client;
    private final IncrementalPolicyController controller;
    private final BiConsumer<String, Observation.Readiness> readiness;
    private final TimeSource time;
    private final ScheduledExecutorService executor;
    private final boolean ownsExecutor;
    private final Map<String, String> selector;
    private final Duration resync;
    private final Duration advanceEvery;
    private final boolean removeConfirmed;

    private final Object lock = new Object();
    private final ConcurrentHashMap<String, Object> pending = new ConcurrentHashMap<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final Map<String, NodeState> states = new HashMap<>();
    private final Set<String> confirmed = new HashSet<>();
    /** Nodes whose status the controller holds; written on the watcher's thread, read by {@link #tracked()}. */
    private volatile int tracked;
    private int count;
    private SharedIndexInformer<Node> informer;
    private ScheduledFuture<?> timer;

    private NodeWatcher(Builder b) {
        this.client = b.client;
        this.controller = b.controller;
        this.readiness = b.readiness;
        this.time = b.time;
        this.ownsExecutor = b.executor == null;
        this.executor = ownsExecutor ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "remedy-node-watcher");
            t.setDaemon(true);
            return t;
        }) : b.executor;
        this.selector = Map.copyOf(b.selector);
        this.resync = b.resync;
        this.advanceEvery = b.advanceEvery;
        this.removeConfirmed = b.removeConfirmed;
    }

    /** A builder for a watcher on {@code client} feeding {@code controller}. */
    public static Builder builder(KubernetesClient client, IncrementalPolicyController controller) {
        return new Builder(client, controller);
    }

    /**
     * Starts the informer and the advance timer. Call once.
     *
     * @return completes when the informer has listed the nodes once (fails if the list fails, for example when
     *         remedy may not list nodes: grant {@code list} and {@code watch} on {@code nodes})
     * @throws IllegalStateException if already started
     */
    public synchronized CompletionStage<Void> start() {
        if (informer != null) {
            throw new IllegalStateException("this NodeWatcher was already started");
        }
        informer = (selector.isEmpty() ? client.nodes() : client.nodes().withLabels(selector))
                .runnableInformer(resync.toMillis());
        informer.addEventHandler(new Handler());
        timer = executor.scheduleWithFixedDelay(this::advanceNow, advanceEvery.toMillis(), advanceEvery.toMillis(),
                TimeUnit.MILLISECONDS);
        SharedIndexInformer<Node> started = informer;
        // the policies see the nodes only once all are listed: a fence decided on a partial list would count the
        // nodes not yet seen as absent, and storm protection's shares would be wrong
        return started.start().thenRun(this::scheduleDrain);
    }

    /** Whether the informer has listed the nodes at least once. */
    public boolean hasSynced() {
        SharedIndexInformer<Node> current = informer;
        return current != null && current.hasSynced();
    }

    /** How many nodes the policy controller tracks now (watched and not excluded). */
    public int tracked() {
        return tracked;
    }

    /** Runs the controller's {@code advance(now)} on the watcher's executor now (the timer does it periodically). */
    public CompletableFuture<Void> advance() {
        return withController(c -> {
            advanceNow();
            return null;
        });
    }

    /**
     * Runs {@code work} on the watcher's executor, under its lock: the way for the host to call the same
     * controller (activeRemedy, remediating) without racing the watcher.
     */
    public <T> CompletableFuture<T> withController(Function<IncrementalPolicyController, T> work) {
        Objects.requireNonNull(work, "work");
        CompletableFuture<T> result = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                synchronized (lock) {
                    result.complete(work.apply(controller));
                }
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** Stops the informer and the timer, and the watcher's own thread if it has one; the client stays open. */
    @Override
    public synchronized void close() {
        if (informer != null) {
            informer.stop();
        }
        if (timer != null) {
            timer.cancel(false);
        }
        if (ownsExecutor) {
            executor.shutdownNow();
        }
    }

    /** Whether the first drain after the informer's first list has taken every node of its store. */
    private volatile boolean listed;

    private void enqueue(String name, Object latest) {
        pending.put(name, latest);
        scheduleDrain();
    }

    private void scheduleDrain() {
        if (drainQueued.compareAndSet(false, true)) {
            try {
                executor.execute(this::drain);
            } catch (RuntimeException e) {
                drainQueued.set(false);
                LOG.warn("the node watcher's executor refused work ({}); the nodes are looked at with the next "
                        + "event", e.toString());
            }
        }
    }

    private void drain() {
        drainQueued.set(false);
        if (!hasSynced()) {
            return; // kept in pending: start() drains them once the informer has listed every node
        }
        if (!listed) {
            // the informer's store holds the whole first list before every add has been handed to the handler
            listed = true;
            for (Node node : informer.getStore().list()) {
                pending.putIfAbsent(node.getMetadata().getName(), node);
            }
        }
        synchronized (lock) {
            List<NodeStatus> changed = new ArrayList<>();
            Instant now = time.instant();
            for (String name : pending.keySet()) {
                Object latest = pending.remove(name);
                if (latest == null) {
                    continue;
                }
                try {
                    if (latest == DELETED) {
                        deleted(name);
                    } else {
                        updated((Node) latest, changed, now);
                    }
                } catch (RuntimeException e) {
                    LOG.error("could not evaluate node {}; it is evaluated again with its next event", name, e);
                }
            }
            if (!changed.isEmpty()) {
                // together: every changed node is in its pools before any is decided (the first list, a burst)
                controller.observeAll(changed, now);
            }
            tracked = count;
        }
    }

    private void updated(Node node, List<NodeStatus> changed, Instant now) {
        String name = node.getMetadata().getName();
        NodeState state = states.computeIfAbsent(name, n -> new NodeState());
        state.seen(node.getMetadata().getResourceVersion());
        readiness.accept(name, NodeConversion.readiness(node, state));
        Map<String, String> labels = node.getMetadata().getLabels();
        if (labels != null && "true".equals(labels.get(EXCLUDE_LABEL))) {
            if (state.status() != null) {
                controller.forget(name);
                state.clearStatus();
                count--;
                LOG.info("node {} is labelled {}=true: remedy forgets it while the label is there", name,
                        EXCLUDE_LABEL);
            }
            confirmed.remove(name);
            return;
        }
        Map<String, String> annotations = node.getMetadata().getAnnotations();
        boolean healthy = annotations != null && annotations.containsKey(CONFIRMED_HEALTHY);
        NodeStatus previous = state.status();
        NodeStatus status = NodeConversion.status(node, state, now, healthy);
        if (status != previous) {
            if (previous == null) {
                count++;
            }
            changed.add(status);
        }
        if (healthy) {
            confirmed.add(name);
            removeConfirmedWhenDone(name);
        } else {
            confirmed.remove(name);
        }
    }

    private void deleted(String name) {
        NodeState state = states.remove(name);
        if (state != null) {
            controller.forget(name);
            if (state.status() != null) {
                count--;
            }
        }
        confirmed.remove(name);
    }

    private void advanceNow() {
        synchronized (lock) {
            try {
                controller.advance(time.instant());
                for (String name : confirmed) {
                    removeConfirmedWhenDone(name);
                }
            } catch (RuntimeException e) {
                LOG.error("the policy controller failed to advance; it is tried again in {}", advanceEvery, e);
            }
        }
    }

    /**
     * Removes the confirmed-healthy annotation once the node reports Ready and the controller holds no remediation
     * for it; tried once per resourceVersion of the node.
     */
    private void removeConfirmedWhenDone(String name) {
        NodeState state = states.get(name);
        if (!removeConfirmed || state == null || !state.ready() || controller.activeRemedy(name).isPresent()
                || Objects.equals(state.resourceVersion(), state.removalTriedFor())) {
            return;
        }
        state.removalTried(state.resourceVersion());
        removeAnnotation(name);
    }

    /**
     * Removes the annotation with a JSON patch (a missing annotation fails the patch harmlessly). A strategic merge
     * patch would do as well on a real server; JSON patch also works on the mock server.
     */
    private void removeAnnotation(String name) {
        try {
            client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON), REMOVE_CONFIRMED);
            LOG.info("node {} was confirmed healthy and has no remediation: annotation {} removed", name,
                    CONFIRMED_HEALTHY);
        } catch (KubernetesClientException e) {
            LOG.warn("could not remove annotation {} from node {} (HTTP {}: {}); remove it by hand so that the node"
                    + " is watched for failures again", CONFIRMED_HEALTHY, name, e.getCode(), e.getMessage());
        }
    }

    /** The informer's handler: records the latest object of each node and queues one drain. */
    private final class Handler implements ResourceEventHandler<Node> {
        @Override
        public void onAdd(Node node) {
            enqueue(node.getMetadata().getName(), node);
        }

        @Override
        public void onUpdate(Node old, Node node) {
            enqueue(node.getMetadata().getName(), node);
        }

        @Override
        public void onDelete(Node node, boolean finalStateUnknown) {
            enqueue(node.getMetadata().getName(), DELETED);
        }
    }

    /** Builds a {@link NodeWatcher}; every setting but the client and the controller is optional. */
    public static final class Builder {
        private final KubernetesClient client;
        private final IncrementalPolicyController controller;
        private BiConsumer<String, Observation.Readiness> readiness = (node, r) -> { };
        private TimeSource time = TimeSource.system();
        private ScheduledExecutorService executor;
        private Map<String, String> selector = Map.of();
        private Duration resync = DEFAULT_RESYNC;
        private Duration advanceEvery = DEFAULT_ADVANCE;
        private boolean removeConfirmed = true;

        private Builder(KubernetesClient client, IncrementalPolicyController controller) {
            this.client = Objects.requireNonNull(client, "client");
            this.controller = Objects.requireNonNull(controller, "controller");
        }

        /** Sends each node's readiness to {@code engine}. */
        public Builder engine(FenceEngine engine) {
            Objects.requireNonNull(engine, "engine");
            return readiness(engine::observe);
        }

        /** Sends each node's readiness (on every event of the node) to {@code sink} instead of an engine. */
        public Builder readiness(BiConsumer<String, Observation.Readiness> sink) {
            this.readiness = Objects.requireNonNull(sink, "readiness");
            return this;
        }

        /** The clock giving {@code now} to the controller; default the system clock. */
        public Builder time(TimeSource value) {
            this.time = Objects.requireNonNull(value, "time");
            return this;
        }

        /**
         * The executor that runs the controller, instead of the watcher's own thread. Tasks run under the watcher's
         * lock, so a pool works too; the host shuts it down.
         */
        public Builder executor(ScheduledExecutorService value) {
            this.executor = Objects.requireNonNull(value, "executor");
            return this;
        }

        /** Watches only nodes with these labels (equality): this replica's shard. Default every node. */
        public Builder labelSelector(Map<String, String> labels) {
            this.selector = Map.copyOf(labels);
            return this;
        }

        /** The informer's resync period (at least 1 s; default {@link #DEFAULT_RESYNC}). */
        public Builder resync(Duration value) {
            this.resync = atLeastOneSecond(value, "resync");
            return this;
        }

        /** How often the controller's {@code advance} runs (at least 1 s; default {@link #DEFAULT_ADVANCE}). */
        public Builder advanceEvery(Duration value) {
            this.advanceEvery = atLeastOneSecond(value, "advanceEvery");
            return this;
        }

        /** Whether remedy removes the confirmed-healthy annotation once it acted on it (default true). */
        public Builder removeConfirmedHealthy(boolean value) {
            this.removeConfirmed = value;
            return this;
        }

        /** The watcher, not started. */
        public NodeWatcher build() {
            return new NodeWatcher(this);
        }

        private static Duration atLeastOneSecond(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException(name + " must be at least 1s, got " + value);
            }
            return value;
        }
    }
}
