package dev.remedy.fence.kube.ha;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.fence.kube.ha.internal.RenewTrackingLock;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One active engine per shard: the replicas of the operator campaign for the shard's {@code coordination.k8s.io/v1}
 * Lease (default name {@code remedy-<shard>}) through fabric8's {@link LeaderElector}; the one that holds it builds
 * an engine with the host's {@link EngineFactory} and starts it, and closes it when it loses the Lease. Standbys
 * take over when the leader's Lease lapses, after the lease duration. Each term of leadership has its own
 * {@link LeaseGuard}, which the engine's effects are fenced by (see the package documentation).
 *
 * <p>{@link #close()} hands over gracefully: this process stops acting, closes its engine, then releases the Lease,
 * so that a standby takes over at its next retry instead of after the lease duration.
 *
 * <p>Thread-safe. The elector's callbacks hand the engine's start and stop to one thread of this object's own, so
 * a slow engine start never delays a renewal.
 */
public final class ShardLeadership implements AutoCloseable {

    /** Default lease duration, as client-go's: how long standbys wait after the last renewal. */
    public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);
    /** Default renew deadline, as client-go's: how long after its last renewal the leader may act. */
    public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);
    /** Default retry period, as client-go's: between two tries to acquire or renew. */
    public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);
    /** How long {@link #close()} waits for the engine to close before it releases the Lease anyway. */
    public static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(ShardLeadership.class);

    private final KubernetesClient client;
    private final String shard;
    private final String lease;
    private final String identity;
    private final Duration leaseDuration;
    private final Duration renewDeadline;
    private final Duration retryPeriod;
    private final EngineFactory factory;
    private final TermListener terms;
    private final TimeSource time;
    private final RenewTrackingLock lock;
    private final Executor electorExecutor;
    private final ExecutorService ownedElectorExecutor;
    private final ExecutorService lifecycle;
    private final Object monitor = new Object();

    private volatile LeaseGuard term;
    /** The running engine and its term; touched only on the lifecycle thread. */
    private volatile Running running;
    private LeaderElector elector;
    private CompletableFuture<?> campaign;
    private boolean started;
    private boolean closed;

    private ShardLeadership(Builder b) {
        this.client = b.client;
        this.shard = b.shard;
        this.identity = b.identity;
        this.leaseDuration = b.leaseDuration;
        this.renewDeadline = b.renewDeadline;
        this.retryPeriod = b.retryPeriod;
        this.factory = b.factory;
        this.terms = b.terms;
        this.time = b.time;
        this.lease = b.namespace + "/" + b.leaseName;
        this.lock = new RenewTrackingLock(new LeaseLock(b.namespace, b.leaseName, b.identity), b.time);
        this.ownedElectorExecutor = b.electorExecutor == null
                ? Executors.newSingleThreadExecutor(daemon("remedy-lease-" + shard)) : null;
        this.electorExecutor = b.electorExecutor != null ? b.electorExecutor : ownedElectorExecutor;
        this.lifecycle = Executors.newSingleThreadExecutor(daemon("remedy-shard-" + shard));
    }

    /** A builder; client, shard, namespace and engine factory are required. */
    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /** Starts campaigning for the shard's Lease; returns at once. Call once. */
    public void start() {
        synchronized (monitor) {
            if (started || closed) {
                throw new IllegalStateException("the leadership of shard '" + shard + "' was already "
                        + (closed ? "closed" : "started") + "; build a new ShardLeadership");
            }
            started = true;
            campaign();
        }
    }

    /** The shard's name. */
    public String shard() {
        return shard;
    }

    /** This process's identity, the Lease's holder while it leads. */
    public String identity() {
        return identity;
    }

    /** The shard's Lease, as {@code namespace/name}. */
    public String lease() {
        return lease;
    }

    /** Whether this process leads the shard and may act as of now. */
    public boolean isLeading() {
        LeaseGuard current = term;
        return current != null && current.holds();
    }

    /** The guard of the current term, while this process leads. */
    public Optional<LeaseGuard> guard() {
        return Optional.ofNullable(term);
    }

    /** The engine of the current term, once started, while the term lasts. */
    public Optional<FenceEngine> engine() {
        Running now = running;
        return now == null || now.term.ended() ? Optional.empty() : Optional.of(now.engine);
    }

    /**
     * Hands over: stops acting at once, closes the engine (waiting up to {@link #STOP_WAIT}), stops campaigning and
     * releases the Lease if this process holds it. Idempotent.
     */
    @Override
    public void close() {
        shutdown(true);
    }

    /** Stops as a crash would: the engine is closed, nothing renews, and the Lease is left to lapse. For tests. */
    void crash() {
        shutdown(false);
    }

    private void shutdown(boolean release) {
        LeaderElector stopping;
        CompletableFuture<?> future;
        synchronized (monitor) {
            if (closed) {
                return;
            }
            closed = true;
            stopping = elector;
            future = campaign;
        }
        LeaseGuard current = term;
        if (current != null) {
            current.end();
        }
        awaitStop(lifecycle.submit(this::stopEngine));
        if (future != null) {
            future.cancel(true);
        }
        if (release && stopping != null) {
            try {
                if (stopping.release()) {
                    LOG.info("shard {}: released Lease {}", shard, lease);
                }
            } catch (KubernetesClientException e) {
                LOG.warn("shard {}: could not release Lease {}; standbys take over when it lapses, after {}", shard,
                        lease, leaseDuration, e);
            }
        }
        lifecycle.shutdown();
        if (ownedElectorExecutor != null) {
            ownedElectorExecutor.shutdownNow();
        }
    }

    private void campaign() {
        synchronized (monitor) {
            if (closed) {
                return;
            }
            elector = new LeaderElectorBuilder(client, electorExecutor).withConfig(new LeaderElectionConfigBuilder()
                    .withName(lease).withLock(lock).withLeaseDuration(leaseDuration).withRenewDeadline(renewDeadline)
                    .withRetryPeriod(retryPeriod).withReleaseOnCancel(false)
                    .withLeaderCallbacks(new LeaderCallbacks(this::onStartLeading, this::onStopLeading,
                            leader -> LOG.info("shard {}: Lease {} is held by {}", shard, lease, leader)))
                    .build()).build();
            CompletableFuture<?> future = elector.start();
            campaign = future;
            future.whenComplete((done, error) -> {
                if (error != null && !future.isCancelled()) {
                    LOG.warn("shard {}: the election on Lease {} stopped", shard, lease, error);
                }
                onLifecycle(this::campaign); // a leader that lost the Lease becomes a standby again
            });
        }
    }

    private void onStartLeading() {
        LeaseGuard fresh = new LeaseGuard(identity, lease, renewDeadline, time, lock::lastRenewNanos);
        LeaseGuard previous = term;
        term = fresh;
        if (previous != null) {
            previous.end();
        }
        LOG.info("shard {}: {} leads (Lease {}); starting its engine", shard, identity, lease);
        onLifecycle(() -> startEngine(fresh));
    }

    private void onStopLeading() {
        LeaseGuard current = term;
        if (current == null) {
            return;
        }
        current.end();
        term = null;
        LOG.info("shard {}: {} no longer leads (Lease {}); closing its engine", shard, identity, lease);
        onLifecycle(this::stopEngine);
    }

    private void startEngine(LeaseGuard guard) {
        if (guard.ended()) {
            return;
        }
        stopEngine();
        FenceEngine engine = null;
        try {
            engine = Objects.requireNonNull(factory.create(guard), "the engine factory returned null");
            // handed out (engine()) only once started: a decision taken while start() recovers the records would be
            // issued a second time by that recovery
            engine.start();
            running = new Running(guard, engine);
            FenceEngine started = engine;
            tell(() -> terms.started(started, guard));
        } catch (RuntimeException e) {
            LOG.error("shard {}: the engine of {} could not be built or started; giving the Lease {} up so that "
                    + "another replica may try", shard, identity, lease, e);
            guard.end();
            if (engine != null && running == null) {
                closeQuietly(engine);
            }
            stopEngine();
            giveUp();
        }
    }

    private void stopEngine() {
        Running now = running;
        running = null;
        if (now != null) {
            now.term.end();
            tell(() -> terms.ended(now.engine()));
            closeQuietly(now.engine);
        }
    }

    private void closeQuietly(FenceEngine engine) {
        try {
            engine.close();
        } catch (RuntimeException e) {
            LOG.warn("shard {}: closing the engine failed", shard, e);
        }
    }

    /** Releases the Lease after a failed start; the campaign starts again when the election's future ends. */
    private void giveUp() {
        LeaderElector current;
        CompletableFuture<?> future;
        synchronized (monitor) {
            current = elector;
            future = campaign;
        }
        future.cancel(true);
        try {
            current.release();
        } catch (KubernetesClientException e) {
            LOG.warn("shard {}: could not release Lease {}", shard, lease, e);
        }
    }

    private void tell(Runnable listener) {
        try {
            listener.run();
        } catch (RuntimeException e) {
            LOG.warn("shard {}: the term listener failed", shard, e);
        }
    }

    private void onLifecycle(Runnable action) {
        try {
            lifecycle.execute(action);
        } catch (RejectedExecutionException e) {
            LOG.debug("shard {}: closed; {} not run", shard, action);
        }
    }

    private void awaitStop(Future<?> stop) {
        try {
            stop.get(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("shard {}: the engine did not close within {}; releasing Lease {} anyway", shard, STOP_WAIT,
                    lease, e);
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** An engine and the term it runs for. */
    private record Running(LeaseGuard term, FenceEngine engine) {
    }

    /**
     * Builds a {@link ShardLeadership}. Client, shard, namespace and engine factory are required; the identity
     * defaults to the environment's {@code POD_NAME}, else {@code HOSTNAME}. Durations must satisfy
     * lease duration &gt; renew deadline &gt; 1.2 &times; retry period, as client-go requires.
     */
    public static final class Builder {
        private final KubernetesClient client;
        private String shard;
        private String namespace;
        private String leaseName;
        private String identity;
        private Duration leaseDuration = DEFAULT_LEASE_DURATION;
        private Duration renewDeadline = DEFAULT_RENEW_DEADLINE;
        private Duration retryPeriod = DEFAULT_RETRY_PERIOD;
        private EngineFactory factory;
        private TermListener terms = TermListener.NONE;
        private TimeSource time = TimeSource.system();
        private Executor electorExecutor;

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /** The shard's name (required): a DNS label, as it becomes part of the Lease's name. */
        public Builder shard(String value) {
            if (value == null || !value.matches("[a-z0-9]([-a-z0-9]{0,54}[a-z0-9])?")) {
                throw new IllegalArgumentException("shard must be a DNS label of at most 56 characters (lower case"
                        + " letters, digits and '-'), was '" + value + "'");
            }
            this.shard = value;
            return this;
        }

        /** The namespace of the Lease (required): the operator's own. */
        public Builder namespace(String value) {
            this.namespace = requireText("namespace", value);
            return this;
        }

        /** The Lease's name; default {@code remedy-<shard>}. */
        public Builder leaseName(String value) {
            this.leaseName = requireText("leaseName", value);
            return this;
        }

        /** This process's identity, unique among the replicas; default the pod's name. */
        public Builder identity(String value) {
            this.identity = requireText("identity", value);
            return this;
        }

        /** How long standbys wait after the last renewal before they take over; default 15 s. */
        public Builder leaseDuration(Duration value) {
            this.leaseDuration = requirePositive("leaseDuration", value);
            return this;
        }

        /** How long after its last renewal the leader may act (and keeps trying to renew); default 10 s. */
        public Builder renewDeadline(Duration value) {
            this.renewDeadline = requirePositive("renewDeadline", value);
            return this;
        }

        /** Time between two tries to acquire or renew; default 2 s. */
        public Builder retryPeriod(Duration value) {
            this.retryPeriod = requirePositive("retryPeriod", value);
            return this;
        }

        /** Builds the engine of each term (required). */
        public Builder engineFactory(EngineFactory value) {
            this.factory = Objects.requireNonNull(value, "engineFactory");
            return this;
        }

        /** Told when each term starts and ends (nothing by default). */
        public Builder termListener(TermListener value) {
            this.terms = Objects.requireNonNull(value, "termListener");
            return this;
        }

        /** The monotonic clock the guard measures renewals on; default the system's. */
        public Builder time(TimeSource value) {
            this.time = Objects.requireNonNull(value, "time");
            return this;
        }

        /** Runs the elector's tries; default a daemon thread of this object's own, stopped by close. */
        public Builder electorExecutor(Executor value) {
            this.electorExecutor = Objects.requireNonNull(value, "electorExecutor");
            return this;
        }

        /**
         * The leadership; call {@link ShardLeadership#start()} next.
         *
         * @throws IllegalStateException naming every missing part and every inconsistent duration
         */
        public ShardLeadership build() {
            if (identity == null) {
                identity = firstSet(System.getenv("POD_NAME"), System.getenv("HOSTNAME"));
            }
            java.util.List<String> problems = new java.util.ArrayList<>();
            addIfMissing(problems, "shard", shard);
            addIfMissing(problems, "namespace", namespace);
            addIfMissing(problems, "engineFactory", factory);
            addIfMissing(problems, "identity (neither POD_NAME nor HOSTNAME is set)", identity);
            if (leaseDuration.compareTo(renewDeadline) <= 0) {
                problems.add("leaseDuration (" + leaseDuration + ") must be longer than renewDeadline ("
                        + renewDeadline + "), or an old leader could still act when a standby takes over");
            }
            if (renewDeadline.toMillis() <= retryPeriod.toMillis() * 12 / 10) {
                problems.add("renewDeadline (" + renewDeadline + ") must be longer than 1.2 x retryPeriod ("
                        + retryPeriod + ")");
            }
            if (!problems.isEmpty()) {
                throw new IllegalStateException("cannot build the leadership of a shard: " + String.join("; ",
                        problems));
            }
            if (leaseName == null) {
                leaseName = "remedy-" + shard;
            }
            return new ShardLeadership(this);
        }

        private static void addIfMissing(java.util.List<String> problems, String name, Object value) {
            if (value == null) {
                problems.add(name + " is not set");
            }
        }

        private static String firstSet(String... values) {
            for (String value : values) {
                if (value != null && !value.isBlank()) {
                    return value;
                }
            }
            return null;
        }

        private static String requireText(String name, String value) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(name + " must not be empty");
            }
            return value;
        }

        private static Duration requirePositive(String name, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
            return value;
        }
    }
}
