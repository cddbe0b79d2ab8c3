package dev.remedy.fence.kube.ha;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.engine.OperationTask;
import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.Operation;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.fence.kube.cluster.KubeClusterOperations;
import dev.remedy.fence.kube.ha.FailoverSeams.HookedCluster;
import dev.remedy.fence.kube.ha.FailoverSeams.HookedProvider;
import dev.remedy.fence.kube.ha.FailoverSeams.RecordingCluster;
import dev.remedy.fence.kube.ha.FailoverSeams.RecordingStore;
import dev.remedy.fence.kube.store.KubeFenceStateStore;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.FakePowerTarget;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Two replicas of one shard on ONE API server and ONE power lab (the BMC). Each replica is a process of its own: its
 * own {@link KubernetesClient}, its own {@link ShardLeadership}, its own {@link KubeFenceStateStore} and
 * {@link KubeClusterOperations}; what they share lives only in the API server (the NodeFence, the Node with its
 * taints and cordon, the pods, the VolumeAttachments, the Lease). Every effect either replica makes is written to
 * one trail, in order ("a cordon", "b agent off", "a save release"). A fault can be armed at the leader's k-th
 * effect boundary.
 *
 * <p>Layering of each replica, outermost first: engine → boundary hook → Lease fence (LeaderOnly wrappers, the
 * engine's effect guard) → recorder → the replica's Kubernetes store and cluster operations → the API server. A
 * hook that blocks is thus a pause before the guard is asked, which is what a process paused anywhere before its
 * check looks like. Agent "before" boundaries are in the executor (before the engine's guard is asked); "after"
 * boundaries are after the device answered.
 */
final class FailoverWorld implements AutoCloseable {

    /** What happens to the leader at the armed boundary. */
    enum Fault { CRASH, PAUSE }

    /** Thrown on a crashed replica's threads: the process is dead, nothing after it runs. */
    static final class SimulatedCrash extends Error {
        SimulatedCrash() {
            super("simulated crash", null, false, false);
        }
    }

    static final String NODE = "worker-1";
    static final int PODS = 3;
    static final int BYSTANDER_PODS = 2;
    private static final String PASSWORD = "failover-test-password";

    final ApiServer api;
    final FakePowerLab lab = new FakePowerLab();
    final FakePowerTarget target = lab.create(NODE, TimeSource.system()).transitionTime(Duration.ofMillis(20));
    final List<String> trail = Collections.synchronizedList(new ArrayList<>());
    final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    final Replica a;
    final Replica b;

    private final int faultAt;
    private final Fault fault;
    volatile int faultIndex = -1;
    private final CountDownLatch resume = new CountDownLatch(1);

    FailoverWorld(ApiServer api, String shard, int faultAt, Fault fault) {
        this.api = api;
        this.faultAt = faultAt;
        this.fault = fault;
        api.addNode(NODE, PODS);
        api.addNode(ApiServer.BYSTANDER, BYSTANDER_PODS);
        this.a = new Replica("a", shard);
        this.b = new Replica("b", shard);
    }

    /** Lets a paused leader go on (its elector and its blocked thread). */
    void resumeLeader() {
        resume.countDown();
        a.elector.resume();
    }

    /** Entries of the trail, from {@code from}, made by {@code replica}. */
    List<String> trailOf(Replica replica, int from) {
        synchronized (trail) {
            return trail.subList(Math.max(0, from), trail.size()).stream()
                    .filter(e -> e.startsWith(replica.name + " ")).toList();
        }
    }

    /** Whether the node reports Ready: it was powered off and is on again. */
    boolean nodeReady() {
        return target.history().contains(PowerState.OFF) && target.power() == PowerState.ON
                && target.pending().isEmpty();
    }

    @Override
    public void close() {
        resume.countDown();
        for (Replica replica : List.of(a, b)) {
            replica.leadership.close();
            replica.elector.shutdown();
            replica.pool.shutdownNow();
            replica.client.close();
        }
    }

    /** A release call is about to go out: the machine must be off and the NodeFence must hold the confirmation. */
    void checkRelease(String call) {
        boolean confirmed = api.record(NODE).flatMap(NodeFence::confirmation).isPresent();
        if (target.power() != PowerState.OFF || !confirmed) {
            violations.add(call + " while the machine is " + target.power() + " and the NodeFence has "
                    + (confirmed ? "a" : "no") + " confirmation");
        }
    }

    /** Power on is about to be sent: the Node on the server must not carry the out-of-service taint. */
    void checkPowerOn() {
        if (api.taints(NODE).contains(Taint.OUT_OF_SERVICE)) {
            violations.add("power on while the out-of-service taint is on the node");
        }
    }

    private static NodePlan plan(FenceAgentRegistry agents) {
        AgentConfig config = agents.provider(HookedProvider.TYPE).configure().set("plug", NODE)
                .secret("password", Secret.of(PASSWORD)).set("power_wait", "10ms").set("poll_interval", "10ms")
                .set("login_timeout", "1s").build();
        ResolvedMethod bmc = new ResolvedMethod("bmc", HookedProvider.TYPE, config);
        return new NodePlan(NODE, "failover", Map.of(
                FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(30)),
                FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofSeconds(30), 1, List.of(List.of(bmc))),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(30))));
    }

    static FlowSettings settings() {
        return FlowSettings.custom().hold(Duration.ofMillis(50)).backoff(Duration.ofMillis(100), Duration.ofMillis(500))
                .clusterBudget(Duration.ofSeconds(10)).operationGrace(Duration.ofSeconds(2))
                .restartDelay(Duration.ofSeconds(1)).awaitReady(Duration.ofSeconds(60)).build();
    }

    /** One replica, a process of its own: its client, store, cluster operations, leadership and engine threads. */
    final class Replica {
        final String name;
        final KubernetesClient client;
        final KubeFenceStateStore store;
        final KubeClusterOperations cluster;
        final ShardLeadership leadership;
        final PausableExecutor elector = new PausableExecutor();
        final ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "engine-" + r.hashCode());
            t.setDaemon(true);
            return t;
        });
        final List<String> boundaries = Collections.synchronizedList(new ArrayList<>());
        final List<FenceEvent> events = Collections.synchronizedList(new ArrayList<>());
        volatile boolean dead;
        volatile boolean paused;

        Replica(String name, String shard) {
            this.name = name;
            this.client = api.newClient();
            this.store = new KubeFenceStateStore(client);
            // the release deletes the node's VolumeAttachment (it is verified off): the wait is an effect too
            this.cluster = ApiServer.listPodsWithoutFieldSelector(KubeClusterOperations.builder(client), client)
                    .deleteStaleVolumeAttachments(true).releaseTimeout(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(50)).build();
            this.leadership = ShardLeadership.builder(client).shard(shard).namespace("remedy").identity("pod-" + name)
                    .leaseDuration(Duration.ofMillis(2500)).renewDeadline(Duration.ofMillis(2000))
                    .retryPeriod(Duration.ofMillis(100)).electorExecutor(elector).engineFactory(this::engine).build();
        }

        FailoverWorld world() {
            return FailoverWorld.this;
        }

        private FenceEngine engine(LeaseGuard guard) {
            FenceAgentRegistry agents = FenceAgentRegistry.of(new HookedProvider(this));
            NodePlan plan = plan(agents);
            return FenceEngine.builder()
                    .store(new LeaderOnlyStateStore(new RecordingStore(this, store), guard))
                    .cluster(new HookedCluster(this,
                            new LeaderOnlyClusterOperations(new RecordingCluster(this, cluster), guard)))
                    .effectGuard(guard)
                    .agents(agents).plans(n -> n.equals(NODE) ? Optional.of(plan) : Optional.empty())
                    .settings(settings()).executor(this::execute).listener(events::add).build();
        }

        /** A reconcile pass, as the operator's loop would make it (not while dead or paused). */
        void reconcile() {
            if (dead || paused) {
                return;
            }
            leadership.engine().ifPresent(engine -> {
                engine.tick();
                if (nodeReady()) {
                    engine.observe(NODE, new Observation.Readiness(true, Optional.empty()));
                }
            });
        }

        /** Runs the engine's tasks; an agent operation's "before" boundary is here, before the engine's guard. */
        private void execute(Runnable runnable) {
            OperationTask task = (OperationTask) runnable;
            pool.execute(() -> {
                try {
                    store.load(task.node()).flatMap(NodeFence::inFlight)
                            .filter(op -> op.id().equals(task.operationId()) && op instanceof Operation.Agent)
                            .ifPresent(op -> boundary("before agent " + ((Operation.Agent) op).action().code()));
                    task.run();
                } catch (SimulatedCrash crash) {
                    // the replica died on this thread
                }
            });
        }

        /** Notes a boundary of this replica; triggers the armed fault at the leader's k-th. */
        void boundary(String boundary) {
            if (dead) {
                throw new SimulatedCrash();
            }
            boundaries.add(boundary);
            if (this != a || boundaries.size() - 1 != faultAt) {
                return;
            }
            faultIndex = trail.size();
            if (fault == Fault.CRASH) {
                dead = true;
                leadership.crash();
                pool.shutdownNow();
                throw new SimulatedCrash();
            }
            paused = true;
            elector.pause();
            try {
                if (!resume.await(30, TimeUnit.SECONDS)) {
                    violations.add("the paused leader was never resumed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            paused = false;
        }

        /** Records an effect on the shared world; a dead replica reaches nothing. */
        void effect(String what) {
            if (dead) {
                throw new SimulatedCrash();
            }
            trail.add(name + " " + what);
        }
    }

    /** An executor that holds its tasks while paused, as a frozen process would; never blocks its callers. */
    static final class PausableExecutor implements java.util.concurrent.Executor {
        private final ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "elector");
            t.setDaemon(true);
            return t;
        });
        private final List<Runnable> held = new ArrayList<>();
        private boolean paused;

        @Override
        public synchronized void execute(Runnable command) {
            if (paused) {
                held.add(command);
            } else if (!pool.isShutdown()) {
                pool.execute(command);
            }
        }

        synchronized void pause() {
            paused = true;
        }

        synchronized void resume() {
            paused = false;
            held.forEach(this::execute);
            held.clear();
        }

        void shutdown() {
            pool.shutdownNow();
        }
    }

    /** Waits until {@code condition} holds, up to {@code timeout}; false if it never did. */
    static boolean await(BooleanSupplier condition, Duration timeout, Runnable eachRound) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            eachRound.run();
            Thread.sleep(20);
        }
        return true;
    }
}
