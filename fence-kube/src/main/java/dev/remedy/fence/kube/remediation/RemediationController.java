package dev.remedy.fence.kube.remediation;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.Attempt;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.ReleaseStrategy;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.plan.PlanSource;
import dev.remedy.core.storm.StormListener;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.fence.kube.remediation.internal.MachineConditions;
import dev.remedy.fence.kube.remediation.internal.Machines;
import dev.remedy.fence.kube.remediation.internal.RemediationConditions;
import dev.remedy.fence.kube.remediation.internal.RemediationConditions.Reason;
import dev.remedy.fence.kube.remediation.internal.RemediationEvents;
import dev.remedy.fence.kube.remediation.internal.SecretParameters;
import dev.remedy.fence.kube.remediation.internal.SpecPlanner;
import dev.remedy.fence.kube.remediation.internal.StormAdmission;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * remedy as the remediator of NodeHealthCheck and MachineHealthCheck: fences the node of each
 * {@link NodeFenceRemediation} through the engine and reports as FenceAgentsRemediation does.
 *
 * <p>For each remediation, on one thread, at every informer event and every tick:
 * <ul>
 *   <li>the node is the {@value #NODE_NAME} annotation's, else, for a remediation owned by a Cluster API Machine, the
 *       Machine's {@code status.nodeRef.name}, else the remediation's name;</li>
 *   <li>the finalizer {@value #FINALIZER} is added before anything is done to the node;</li>
 *   <li>the spec becomes the node's plan ({@link RemediationPlans}) with its release strategy; invalid parameters or
 *       an agent without remedy equivalent end it with {@code Succeeded=False}, reason {@code FenceAgentFailed},
 *       every problem listed;</li>
 *   <li>storm protection admits it (held: {@code Processing=True} with the rule in its message, one Event per rule),
 *       then the engine's flow is decided; {@code FenceAgentActionSucceeded=True} once the node is verified off,
 *       {@code Succeeded=True} once its workloads are released (the flow then powers it on and recovers it);</li>
 *   <li>{@value #NHC_TIMED_OUT} stops it: a flow that has not powered the node off is force-stopped and its cordon
 *       and taint undone; one that may have is left to power the node on again (never a host left off);</li>
 *   <li>deletion stops it the same way and drops the finalizer; the remediation itself is never deleted.</li>
 * </ul>
 * A remediation with {@code spec.strategy} is left to the {@link StrategyRemediator}, apart from the finalizer.
 */
public final class RemediationController implements AutoCloseable {

    /** The finalizer remedy keeps on a remediation until it has stopped and cleaned up after it. */
    public static final String FINALIZER = "remedy.dev/node-fence-remediation";
    /** The annotation naming the node (NodeHealthCheck writes it). */
    public static final String NODE_NAME = "remediation.medik8s.io/node-name";
    /** The annotation NodeHealthCheck adds when the remediation timed out. */
    public static final String NHC_TIMED_OUT = "remediation.medik8s.io/nhc-timed-out";
    /** The Processing message of a remediation whose flow runs. */
    static final String STARTED = "the finalizer is set and the node's fence flow runs";
    /** The default period of the pass over every remediation. */
    public static final Duration DEFAULT_TICK = Duration.ofSeconds(1);
    /** The default informer resync period. */
    public static final Duration DEFAULT_RESYNC = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(RemediationController.class);

    private final Builder settings;
    private final SpecPlanner planner;
    private final StormAdmission storm;
    private final RemediationEvents events;
    private final Machines machines;
    private final SecretParameters secrets;
    private final ScheduledExecutorService thread;
    /** What this controller knows of each remediation (by uid) beyond its status. */
    private final Map<String, Tracked> tracked = new ConcurrentHashMap<>();
    private SharedIndexInformer<NodeFenceRemediation> informer;

    private static final class Tracked {
        private boolean decided;
        /** Whether it asks for its node to be fenced now (not ended, not interrupted). */
        private boolean requesting;
        private String heldRule;
        private String node;
    }

    private RemediationController(Builder b) {
        this.settings = b;
        this.planner = new SpecPlanner(b.agents, b.topologies);
        this.storm = new StormAdmission(b.storm, new SplittableRandom(), b.signals, b.started);
        this.events = new RemediationEvents(b.client, b.component);
        this.machines = new Machines(b.client);
        this.secrets = new SecretParameters(b.client);
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "remedy-remediations");
            t.setDaemon(true);
            return t;
        });
    }

    /** A builder: remediations of {@code client} fenced by {@code engine} with {@code agents}, plans in {@code plans}. */
    public static Builder builder(KubernetesClient client, FenceEngine engine, FenceAgentRegistry agents,
                                  RemediationPlans plans) {
        return new Builder(client, engine, agents, plans);
    }

    /** Starts the informer on remediations of every namespace and the periodic pass. Call once. */
    public void start() {
        informer = resources().inAnyNamespace().runnableInformer(settings.resync.toMillis());
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(NodeFenceRemediation obj) {
                kick();
            }

            @Override
            public void onUpdate(NodeFenceRemediation oldObj, NodeFenceRemediation newObj) {
                kick();
            }

            @Override
            public void onDelete(NodeFenceRemediation obj, boolean deletedFinalStateUnknown) {
                kick();
            }
        });
        informer.start();
        long tick = settings.tick.toMillis();
        thread.scheduleWithFixedDelay(this::pass, tick, tick, TimeUnit.MILLISECONDS);
    }

    /** Stops the informer and the pass; flows that run go on in the engine. */
    @Override
    public void close() {
        if (informer != null) {
            informer.stop();
        }
        thread.shutdownNow();
    }

    private void kick() {
        try {
            thread.execute(this::pass);
        } catch (RejectedExecutionException e) {
            LOG.debug("remediation controller closed; event ignored");
        }
    }

    /** One pass over every remediation the informer knows, then the plans no flow needs any more are dropped. */
    private void pass() {
        Set<String> live = new HashSet<>();
        for (NodeFenceRemediation cached : informer.getStore().list()) {
            try {
                NodeFenceRemediation current = resources().inNamespace(cached.getMetadata().getNamespace())
                        .withName(cached.getMetadata().getName()).get();
                if (current != null) {
                    live.add(current.getMetadata().getUid());
                    reconcile(current);
                }
            } catch (RuntimeException e) {
                LOG.warn("remediation {}/{}: {}; tried again at the next pass", cached.getMetadata().getNamespace(),
                        cached.getMetadata().getName(), e.toString());
            }
        }
        tracked.keySet().retainAll(live);
        Set<String> wanted = new HashSet<>();
        tracked.values().forEach(t -> wanted.add(t.node));
        for (String node : settings.plans.nodes()) {
            boolean running = settings.engine.record(node).filter(r -> !r.isSettled()).isPresent();
            if (!running && !wanted.contains(node)) {
                settings.plans.remove(node);
                storm.finished(node);
            }
        }
    }

    private void reconcile(NodeFenceRemediation cr) {
        Instant now = settings.time.instant();
        Optional<GenericKubernetesResource> machine = machines.owner(cr);
        Optional<String> node = nodeOf(cr, machine);
        Tracked t = tracked.computeIfAbsent(cr.getMetadata().getUid(), uid -> new Tracked());
        node.ifPresent(n -> t.node = n);
        List<Condition> conditions = new ArrayList<>(cr.getStatus() == null ? List.of()
                : cr.getStatus().getConditions());
        if (!t.decided && resumed(conditions, node)) {
            t.decided = true; // after a restart: the status says the flow was decided and the engine has it
            replan(cr, node.get());
        }
        if (cr.isMarkedForDeletion()) {
            if (cr.getMetadata().getFinalizers().contains(FINALIZER)) {
                stop(cr, node, t, "deleted");
                if (cr.getSpec().getStrategy() != null) {
                    settings.strategy.cleanUp(cr, node.orElse(null));
                }
                cr.getMetadata().getFinalizers().remove(FINALIZER);
                resource(cr).update();
                LOG.info("remediation {}: cleaned up, finalizer {} dropped", key(cr), FINALIZER);
            }
            return;
        }
        if (!cr.getMetadata().getFinalizers().contains(FINALIZER)) {
            cr.getMetadata().getFinalizers().add(FINALIZER);
            cr = resource(cr).update();
        }
        if (cr.getSpec().getStrategy() != null) {
            Optional<String> refused = settings.strategy.remediate(cr, node.orElse(null));
            if (refused.isPresent() && RemediationConditions.apply(conditions, Reason.FenceAgentFailed, refused.get(),
                    now)) {
                writeStatus(cr, conditions);
            }
            return;
        }
        if (cr.getMetadata().getAnnotations() != null && cr.getMetadata().getAnnotations().containsKey(NHC_TIMED_OUT)) {
            if (!RemediationConditions.is(conditions, RemediationConditions.PROCESSING, "True")
                    && RemediationConditions.find(conditions, RemediationConditions.PROCESSING).isPresent()) {
                return;
            }
            t.requesting = false;
            stop(cr, node, t, "timed out by NodeHealthCheck");
            RemediationConditions.apply(conditions, Reason.RemediationInterruptedByNHC, "NodeHealthCheck's timeout "
                    + "annotation " + NHC_TIMED_OUT + " was set; remedy stopped remediating", now);
            writeStatus(cr, conditions);
            events.record(cr, false, RemediationEvents.STOPPED, "interrupted by NodeHealthCheck's timeout", now);
            return;
        }
        t.requesting = !RemediationConditions.ended(conditions);
        if (!t.requesting) {
            return;
        }
        if (!t.decided) {
            start(cr, machine, node, conditions, t, now);
        } else {
            follow(cr, machine, node.orElseThrow(), conditions, now);
        }
    }

    /** Before the flow: node, spec and storm protection; then the engine's decision. */
    private void start(NodeFenceRemediation cr, Optional<GenericKubernetesResource> machine, Optional<String> node,
                       List<Condition> conditions, Tracked t, Instant now) {
        if (node.isEmpty() || settings.client.nodes().withName(node.get()).get() == null) {
            String message = node.map(n -> "no Node named " + n).orElse("the Machine has no status.nodeRef yet")
                    + "; nothing to fence";
            RemediationConditions.apply(conditions, Reason.RemediationFinishedNodeNotFound, message, now);
            writeStatus(cr, conditions);
            machines.giveUp(machine, message, now);
            events.record(cr, true, RemediationEvents.FINISHED, message, now);
            return;
        }
        SpecPlanner.Planned planned = planner.plan(cr.getSpec(), node.get(), secrets.of(cr, cr.getSpec().getSharedSecretName(), cr.getSpec().getNodeSecretNames(), node.get()));
        if (!planned.problems().isEmpty()) {
            String message = "remediation of node " + node.get() + " cannot run: "
                    + String.join("; ", planned.problems());
            RemediationConditions.apply(conditions, Reason.FenceAgentFailed, message, now);
            writeStatus(cr, conditions);
            machines.giveUp(machine, message, now);
            events.record(cr, true, RemediationEvents.CANNOT_START, message, now);
            return;
        }
        RemediationConditions.apply(conditions, Reason.RemediationStarted, STARTED, now);
        if (planned.release() == ReleaseStrategy.DELETE_NODE) {
            RemediationConditions.set(conditions, RemediationConditions.PERMANENT_NODE_DELETION_EXPECTED, "True",
                    "ResourceDeletion", "remedy deletes the Node object while the machine is verified off and "
                            + "restores it before powering the machine on", now);
        }
        Optional<String> held = admission(node.get(), cr);
        if (held.isPresent()) {
            RemediationConditions.set(conditions, RemediationConditions.PROCESSING, "True",
                    Reason.RemediationStarted.name(), "waiting: " + held.get(), now);
            writeStatus(cr, conditions);
            machine.ifPresent(m -> machines.write(m, MachineConditions.EXTERNALLY_REMEDIATED, "False",
                    MachineConditions.WAITING_FOR_REMEDIATION, "remedy waits: " + held.get(), "Info", now));
            String rule = held.get().replaceFirst("^[^,]*, rule (\\S+):.*$", "$1");
            if (!rule.equals(t.heldRule)) {
                t.heldRule = rule;
                events.record(cr, true, RemediationEvents.CANNOT_START, "node " + node.get() + " is not fenced yet: "
                        + held.get(), now);
            }
            return;
        }
        if (settings.engine.record(node.get()).filter(r -> !r.isSettled()).isPresent()) {
            LOG.info("remediation {}: node {} already has a fence flow (its own plan); following it", key(cr),
                    node.get());
        } else {
            settings.plans.put(node.get(), planned.plan().orElseThrow(), planned.release());
            settings.engine.decide(node.get(), "NodeFenceRemediation " + key(cr));
        }
        t.decided = true;
        RemediationConditions.set(conditions, RemediationConditions.PROCESSING, "True",
                Reason.RemediationStarted.name(), STARTED, now);
        writeStatus(cr, conditions);
        machine.ifPresent(m -> machines.write(m, MachineConditions.EXTERNALLY_REMEDIATED, "False",
                "RemediationInProgress", "remedy is fencing node " + node.get(), "Info", now));
        events.record(cr, false, RemediationEvents.STARTED, "fencing node " + node.get(), now);
    }

    /** While the flow runs: the record's progress as conditions. */
    private void follow(NodeFenceRemediation cr, Optional<GenericKubernetesResource> machine, String node,
                        List<Condition> conditions, Instant now) {
        Optional<NodeFence> record = settings.engine.record(node);
        if (record.isEmpty()) {
            return; // the decision is not saved yet: the engine keeps trying
        }
        NodeFence r = record.get();
        boolean changed = false;
        if (r.confirmation().isPresent()) {
            changed = RemediationConditions.apply(conditions, Reason.FenceAgentSucceeded, "node " + node
                    + " is verified off (" + r.confirmation().get().kind() + ")", now);
        }
        if (r.released()) {
            changed |= RemediationConditions.apply(conditions, Reason.RemediationFinishedSuccessfully, "node " + node
                    + " was fenced and its workloads released; remedy powers it on again and recovers it", now);
            writeStatus(cr, conditions);
            machine.ifPresent(m -> machines.write(m, MachineConditions.EXTERNALLY_REMEDIATED, "True", "Remediated",
                    "remedy fenced node " + node + " and released its workloads", null, now));
            events.record(cr, false, RemediationEvents.FINISHED, "node " + node + " fenced, workloads released", now);
            return;
        }
        if (r.stage() == Stage.FAILED || r.isSettled()) {
            boolean timedOut = !r.attempts().isEmpty()
                    && r.attempts().get(r.attempts().size() - 1).result() == FenceStatus.TIMED_OUT;
            String message = "fencing node " + node + " failed: " + r.reason() + lastAttempt(r);
            if (!r.poweredOff() && !r.isSettled()) {
                settings.engine.forceStop(node, "NodeFenceRemediation " + key(cr));
                undoIsolation(node);
            }
            RemediationConditions.apply(conditions, timedOut ? Reason.FenceAgentTimedOut : Reason.FenceAgentFailed,
                    message, now);
            writeStatus(cr, conditions);
            machines.giveUp(machine, message, now);
            events.record(cr, true, RemediationEvents.FINISHED, message, now);
            return;
        }
        if (changed) {
            writeStatus(cr, conditions);
        }
    }

    /** Stops the flow of this remediation, if it started one, without ever leaving the machine off. */
    private void stop(NodeFenceRemediation cr, Optional<String> node, Tracked t, String why) {
        if (!t.decided || node.isEmpty()) {
            return;
        }
        Optional<NodeFence> record = settings.engine.record(node.get()).filter(r -> !r.isSettled());
        if (record.isEmpty()) {
            return;
        }
        if (record.get().poweredOff() || record.get().released()) {
            LOG.info("remediation {} {}: the flow of node {} may have powered it off, so it goes on until the machine"
                    + " is on again", key(cr), why, node.get());
            return;
        }
        settings.engine.forceStop(node.get(), "NodeFenceRemediation " + key(cr) + " (" + why + ")");
        undoIsolation(node.get());
    }

    /** Uncordons the node and removes remedy's NoSchedule taint (a force-stopped flow does not). */
    private void undoIsolation(String node) {
        if (settings.client.nodes().withName(node).get() != null) {
            settings.cluster.removeTaint(node, Taint.FENCING);
            settings.cluster.uncordon(node);
        }
    }

    /**
     * After a restart or a failover (a new operator has an empty {@link RemediationPlans}): the plan of a flow that
     * runs is made again from the spec, so the engine finds it, and undoes a release as it was done.
     */
    private void replan(NodeFenceRemediation cr, String node) {
        if (settings.plans.nodes().contains(node)
                || settings.engine.record(node).filter(r -> !r.isSettled()).isEmpty()) {
            return;
        }
        SpecPlanner.Planned planned = planner.plan(cr.getSpec(), node, secrets.of(cr, cr.getSpec().getSharedSecretName(), cr.getSpec().getNodeSecretNames(), node));
        planned.plan().ifPresent(plan -> settings.plans.put(node, plan, planned.release()));
        LOG.info("remediation {}: resumed the fence flow of node {}{}", key(cr), node, planned.problems().isEmpty()
                ? "" : "; its plan cannot be made again: " + String.join("; ", planned.problems()));
    }

    /** After a restart: the status says the flow was decided and the engine has its record. */
    private boolean resumed(List<Condition> conditions, Optional<String> node) {
        return node.isPresent() && RemediationConditions.find(conditions, RemediationConditions.PROCESSING)
                .filter(c -> "True".equals(c.getStatus()) && STARTED.equals(c.getMessage())).isPresent()
                && settings.engine.record(node.get()).isPresent();
    }

    private Optional<String> admission(String node, NodeFenceRemediation self) {
        Set<String> requested = new HashSet<>();
        Set<String> remediating = new HashSet<>();
        tracked.values().forEach(t -> {
            if (t.node != null && t.requesting) {
                requested.add(t.node);
                if (t.decided) {
                    remediating.add(t.node);
                }
            }
        });
        settings.engine.records().stream().filter(r -> !r.isSettled()).forEach(r -> remediating.add(r.node()));
        remediating.remove(node);
        return storm.holdBack(node, settings.client.nodes().list().getItems(), requested, remediating,
                settings.time.instant());
    }

    private static Optional<String> nodeOf(NodeFenceRemediation cr, Optional<GenericKubernetesResource> machine) {
        Map<String, String> annotations = cr.getMetadata().getAnnotations();
        if (annotations != null && annotations.get(NODE_NAME) != null && !annotations.get(NODE_NAME).isBlank()) {
            return Optional.of(annotations.get(NODE_NAME));
        }
        boolean ownedByMachine = cr.getMetadata().getOwnerReferences().stream().anyMatch(MachineConditions::isMachine);
        if (ownedByMachine) {
            return machine.flatMap(MachineConditions::nodeName);
        }
        return Optional.of(cr.getMetadata().getName());
    }

    private static String lastAttempt(NodeFence r) {
        if (r.attempts().isEmpty()) {
            return "";
        }
        Attempt last = r.attempts().get(r.attempts().size() - 1);
        return " (last attempt: " + last.operation() + ", " + last.result() + ": " + last.detail() + ")";
    }

    private void writeStatus(NodeFenceRemediation cr, List<Condition> conditions) {
        if (cr.getStatus() == null) {
            cr.setStatus(new NodeFenceRemediationStatus());
        }
        cr.getStatus().setConditions(conditions);
        resource(cr).updateStatus();
    }

    private MixedOperation<NodeFenceRemediation, ?, Resource<NodeFenceRemediation>> resources() {
        return settings.client.resources(NodeFenceRemediation.class);
    }

    private Resource<NodeFenceRemediation> resource(NodeFenceRemediation cr) {
        return resources().inNamespace(cr.getMetadata().getNamespace()).resource(cr);
    }

    private static String key(NodeFenceRemediation cr) {
        return cr.getMetadata().getNamespace() + "/" + cr.getMetadata().getName();
    }

    /** Builds a {@link RemediationController}. */
    public static final class Builder {
        private final KubernetesClient client;
        private final FenceEngine engine;
        private final FenceAgentRegistry agents;
        private final RemediationPlans plans;
        private PlanSource topologies = node -> Optional.empty();
        private ClusterOperations cluster;
        private StormSettings storm = StormSettings.ofDefaults();
        private StormListener signals = StormListener.NONE;
        private Instant started;
        private StrategyRemediator strategy = StrategyRemediator.NOT_SUPPORTED;
        private TimeSource time = TimeSource.system();
        private Duration resync = DEFAULT_RESYNC;
        private Duration tick = DEFAULT_TICK;
        private String component = "remedy";

        private Builder(KubernetesClient client, FenceEngine engine, FenceAgentRegistry agents,
                        RemediationPlans plans) {
            this.client = Objects.requireNonNull(client, "client");
            this.engine = Objects.requireNonNull(engine, "engine");
            this.agents = Objects.requireNonNull(agents, "agents");
            this.plans = Objects.requireNonNull(plans, "plans");
        }

        /** The operator's fence topology, for remediations without an agent (none by default). */
        public Builder topologies(PlanSource value) {
            topologies = Objects.requireNonNull(value, "topologies");
            return this;
        }

        /** Where a stopped flow's cordon and taint are undone (required: the engine's cluster operations). */
        public Builder cluster(ClusterOperations value) {
            cluster = Objects.requireNonNull(value, "cluster");
            return this;
        }

        /**
         * Storm protection over every Node ({@link StormSettings#ofDefaults()} by default), its signals to
         * {@code listener}, its quiet period from {@code startedAt} (the time source's now by default).
         */
        public Builder storm(StormSettings value, StormListener listener, Instant startedAt) {
            storm = Objects.requireNonNull(value, "storm");
            signals = Objects.requireNonNull(listener, "listener");
            started = Objects.requireNonNull(startedAt, "startedAt");
            return this;
        }

        /** Who runs remediations with {@code spec.strategy} ({@link StrategyRemediator#NOT_SUPPORTED} by default). */
        public Builder strategy(StrategyRemediator value) {
            strategy = Objects.requireNonNull(value, "strategy");
            return this;
        }

        /** The clock of conditions, Events and storm protection (the system's by default). */
        public Builder time(TimeSource value) {
            time = Objects.requireNonNull(value, "time");
            return this;
        }

        /** The informer's resync period and the period of the pass over every remediation. */
        public Builder periods(Duration resyncValue, Duration tickValue) {
            resync = Objects.requireNonNull(resyncValue, "resync");
            tick = Objects.requireNonNull(tickValue, "tick");
            return this;
        }

        /** The component named in Events ({@code remedy} by default). */
        public Builder component(String value) {
            component = Objects.requireNonNull(value, "component");
            return this;
        }

        /** The controller, not started. */
        public RemediationController build() {
            if (cluster == null) {
                throw new IllegalStateException("the remediation controller needs the cluster operations that undo a "
                        + "stopped flow's cordon and taint: call cluster(...)");
            }
            if (started == null) {
                started = time.instant();
            }
            return new RemediationController(this);
        }
    }
}
