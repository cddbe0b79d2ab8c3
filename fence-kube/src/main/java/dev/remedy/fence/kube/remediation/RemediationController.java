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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
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
 *       then the engine's flow is decided with the fence-race delay storm protection chose; {@code FenceAgentActionSucceeded=True} once the node is verified off,
 *       {@code Succeeded=True} once its workloads are released (the flow then powers it on and recovers it);</li>
 *   <li>{@value #NHC_TIMED_OUT} stops it: a flow that has not powered the node off is force-stopped and its cordon
 *       and taint undone; one that may have is left to power the node on again (never a host left off);</li>
 *   <li>deletion stops it the same way and drops the finalizer once the node's flow is settled: while the flow may
 *       still act on the machine, the remediation's spec (and Secrets) are what a restarted or new leader makes the
 *       plan from again; the remediation itself is never deleted;</li>
 *   <li>after a restart or failover, every flow that is not settled gets its plan again from the remediation that
 *       decided it, whatever its conditions say; a record decided before this remediation's decision is never
 *       reported as its result, and a decision the engine could not save yet keeps it waiting.</li>
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
    /** The reasons of {@code Succeeded=False} that ask the MachineSet to replace the Machine. */
    private static final Set<String> GIVE_UP = Set.of(Reason.FenceAgentFailed.name(),
            Reason.FenceAgentTimedOut.name(), Reason.RemediationFinishedNodeNotFound.name());

    private final Builder settings;
    private final SpecPlanner planner;
    private final StormAdmission storm;
    private final RemediationEvents events;
    private final Machines machines;
    private final SecretParameters secrets;
    private final ScheduledExecutorService thread;
    /** What this controller knows of each remediation (by uid) beyond its status. */
    private final Map<String, Tracked> tracked = new ConcurrentHashMap<>();
    /** The nodes whose flow's plan could not be made again after a restart (said once in the log). */
    private final Set<String> unplannable = ConcurrentHashMap.newKeySet();
    private SharedIndexInformer<NodeFenceRemediation> informer;

    private static final class Tracked {
        /** Whether the node's flow is this remediation's (decided by it, or followed). */
        private boolean decided;
        /** Whether this remediation's decision waits in the engine to be saved. */
        private boolean pending;
        /** When the node's record from before this remediation was decided: that record is never its result. */
        private Instant older;
        /** Whether it asks for its node to be fenced now (not ended, not interrupted). */
        private boolean requesting;
        private String heldRule;
        /** Whether the log says once that a stopped remediation's flow goes on until the machine is on again. */
        private boolean goesOnLogged;
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
        List<NodeFenceRemediation> current = new ArrayList<>();
        for (NodeFenceRemediation cached : informer.getStore().list()) {
            try {
                Optional.ofNullable(resources().inNamespace(cached.getMetadata().getNamespace())
                        .withName(cached.getMetadata().getName()).get()).ifPresent(current::add);
            } catch (RuntimeException e) {
                LOG.warn("remediation {}/{}: {}; tried again at the next pass", cached.getMetadata().getNamespace(),
                        cached.getMetadata().getName(), e.toString());
                live.add(cached.getMetadata().getUid());
            }
        }
        replanAll(current);
        for (NodeFenceRemediation cr : current) {
            live.add(cr.getMetadata().getUid());
            try {
                reconcile(cr);
            } catch (RuntimeException e) {
                LOG.warn("remediation {}: {}; tried again at the next pass", key(cr), e.toString());
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
        if (cr.getSpec().getStrategy() == null && node.isPresent()) {
            resume(cr, node.get(), conditions, t);
            if (pendingSaved(node.get(), t)) {
                started(cr, machine, node.get(), conditions, t, now);
            }
        }
        if (cr.isMarkedForDeletion()) {
            if (cr.getMetadata().getFinalizers().contains(FINALIZER)) {
                stop(cr, node, t, "deleted");
                if (cr.getSpec().getStrategy() != null) {
                    settings.strategy.cleanUp(cr, node.orElse(null));
                } else if (flowGoesOn(node, t)) {
                    LOG.debug("remediation {} deleted: finalizer {} kept until the flow of node {} is settled",
                            key(cr), FINALIZER, node.orElseThrow());
                    return;
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
            if (t.pending) {
                return; // stopped once the engine saved the decision, so that no flow starts after the stop
            }
            stop(cr, node, t, "timed out by NodeHealthCheck");
            RemediationConditions.apply(conditions, Reason.RemediationInterruptedByNHC, "NodeHealthCheck's timeout "
                    + "annotation " + NHC_TIMED_OUT + " was set; remedy stopped remediating", now);
            writeStatus(cr, conditions);
            events.record(cr, false, RemediationEvents.STOPPED, "interrupted by NodeHealthCheck's timeout", now);
            return;
        }
        t.requesting = !RemediationConditions.ended(conditions);
        if (!t.requesting) {
            reassertGiveUp(machine, conditions, now);
            return;
        }
        if (t.pending) {
            return; // the engine keeps trying to save the decision
        }
        if (!t.decided) {
            start(cr, machine, node, conditions, t, now);
        } else {
            follow(cr, machine, node.orElseThrow(), conditions, t, now);
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
        StormAdmission.Verdict verdict = admission(node.get());
        Optional<String> held = verdict.heldBack();
        if (held.isPresent()) {
            RemediationConditions.set(conditions, RemediationConditions.PROCESSING, "True",
                    Reason.RemediationStarted.name(), "waiting: " + held.get(), now);
            writeStatus(cr, conditions);
            machine.ifPresent(m -> machines.progress(m, "remedy waits: " + held.get(), now));
            String rule = held.get().replaceFirst("^[^,]*, rule (\\S+):.*$", "$1");
            if (!rule.equals(t.heldRule)) {
                t.heldRule = rule;
                events.record(cr, true, RemediationEvents.CANNOT_START, "node " + node.get() + " is not fenced yet: "
                        + held.get(), now);
            }
            return;
        }
        Optional<NodeFence> previous = settings.engine.record(node.get());
        if (previous.filter(r -> !r.isSettled()).isPresent()) {
            LOG.info("remediation {}: node {} already has a fence flow (its own plan); following it", key(cr),
                    node.get());
        } else {
            settings.plans.put(node.get(), planned.plan().orElseThrow(), planned.release());
            t.older = previous.map(NodeFence::decidedAt).orElse(null);
            Optional<NodeFence> decided = settings.engine.decide(node.get(), "NodeFenceRemediation " + key(cr),
                    verdict.raceDelay()).filter(r -> mine(t, r));
            if (decided.isEmpty()) {
                t.pending = true;
                String why = Optional.ofNullable(settings.engine.unsavedNodes().get(node.get()))
                        .orElse("the engine refused it");
                RemediationConditions.set(conditions, RemediationConditions.PROCESSING, "True",
                        Reason.RemediationStarted.name(), "waiting: the fence decision of node " + node.get()
                                + " is not saved yet (" + why + ")", now);
                writeStatus(cr, conditions);
                LOG.warn("remediation {}: the fence decision of node {} is not saved yet; it starts once the engine "
                        + "saves it", key(cr), node.get());
                return;
            }
        }
        started(cr, machine, node.get(), conditions, t, now);
    }

    /** The flow is decided (saved): the remediation says so, on the Machine too. */
    private void started(NodeFenceRemediation cr, Optional<GenericKubernetesResource> machine, String node,
                         List<Condition> conditions, Tracked t, Instant now) {
        t.decided = true;
        RemediationConditions.set(conditions, RemediationConditions.PROCESSING, "True",
                Reason.RemediationStarted.name(), STARTED, now);
        writeStatus(cr, conditions);
        machine.ifPresent(m -> machines.progress(m, "remedy is fencing node " + node, now));
        events.record(cr, false, RemediationEvents.STARTED, "fencing node " + node, now);
    }

    /** Whether {@code record} is this remediation's flow: decided after the node's record from before it. */
    private static boolean mine(Tracked t, NodeFence record) {
        return t.older == null || record.decidedAt().isAfter(t.older);
    }

    /**
     * Whether the decision that waited to be saved is saved now (then it is this remediation's flow); a decision the
     * engine no longer holds and did not save is dropped, and the remediation starts again.
     */
    private boolean pendingSaved(String node, Tracked t) {
        if (!t.pending) {
            return false;
        }
        boolean saved = settings.engine.record(node).filter(r -> mine(t, r)).isPresent();
        if (saved || !settings.engine.unsavedNodes().containsKey(node)) {
            t.pending = false;
        }
        return saved;
    }

    /** Whether the flow of this remediation's node may still act on the machine, so the finalizer must stay. */
    private boolean flowGoesOn(Optional<String> node, Tracked t) {
        return node.isPresent() && (t.pending || t.decided
                && settings.engine.record(node.get()).filter(r -> !r.isSettled()).isPresent());
    }

    /**
     * A remediation that gave up keeps asking the MachineSet to replace its Machine at every pass, so a write that was
     * lost (a conflict, a restart) is made again; nothing is written while it is in place.
     */
    private void reassertGiveUp(Optional<GenericKubernetesResource> machine, List<Condition> conditions,
                                Instant now) {
        if (machine.isEmpty()) {
            return;
        }
        RemediationConditions.find(conditions, RemediationConditions.SUCCEEDED)
                .filter(c -> "False".equals(c.getStatus()) && GIVE_UP.contains(c.getReason()))
                .ifPresent(c -> machines.giveUp(machine, c.getMessage(), now));
    }

    /** While the flow runs: the record's progress as conditions. */
    private void follow(NodeFenceRemediation cr, Optional<GenericKubernetesResource> machine, String node,
                        List<Condition> conditions, Tracked t, Instant now) {
        Optional<NodeFence> record = settings.engine.record(node).filter(r -> mine(t, r));
        if (record.isEmpty()) {
            return; // no record of this remediation's flow
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
            machine.ifPresent(m -> machines.progress(m, "remedy fenced node " + node + " and released its workloads;"
                    + " it powers the machine on again", now));
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
            if (t.goesOnLogged) {
                return;
            }
            t.goesOnLogged = true;
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
     * After a restart or a failover (a new operator has an empty {@link RemediationPlans}): every flow that is not
     * settled and has no plan gets its plan again from the spec of the remediation that decided it, whatever that
     * remediation's conditions say (it may have succeeded, been interrupted or be deleted while the flow still has to
     * power the machine on and recover it), so the engine finds it and undoes a release as it was done. That
     * remediation is the latest one of the node created before the flow was decided and not ended before then.
     */
    private void replanAll(List<NodeFenceRemediation> remediations) {
        Set<String> planned = settings.plans.nodes();
        for (NodeFence record : settings.engine.records()) {
            if (record.isSettled() || planned.contains(record.node())) {
                continue;
            }
            Instant decided = record.decidedAt().truncatedTo(ChronoUnit.SECONDS);
            remediations.stream().filter(cr -> cr.getSpec().getStrategy() == null)
                    .filter(cr -> !created(cr).isAfter(decided) && !endedBefore(cr, decided))
                    .filter(cr -> nodeOf(cr, machines.owner(cr)).filter(record.node()::equals).isPresent())
                    .max(Comparator.comparing(RemediationController::created))
                    .ifPresent(cr -> replan(cr, record.node()));
        }
    }

    private void replan(NodeFenceRemediation cr, String node) {
        SpecPlanner.Planned planned = planner.plan(cr.getSpec(), node, secrets.of(cr, cr.getSpec().getSharedSecretName(), cr.getSpec().getNodeSecretNames(), node));
        if (planned.plan().isPresent()) {
            settings.plans.put(node, planned.plan().get(), planned.release());
            unplannable.remove(node);
            LOG.info("remediation {}: resumed the fence flow of node {}", key(cr), node);
        } else if (unplannable.add(node)) {
            LOG.warn("remediation {}: the plan of node {}'s fence flow cannot be made again ({}); the flow waits until "
                    + "the remediation's spec or Secrets are fixed", key(cr), node, String.join("; ",
                    planned.problems()));
        }
    }

    /**
     * After a restart or a failover: a remediation that had started follows its node's flow again; a settled record
     * counts as its result only if it was decided after the remediation was created.
     */
    private void resume(NodeFenceRemediation cr, String node, List<Condition> conditions, Tracked t) {
        boolean startedBefore = RemediationConditions.ended(conditions) || RemediationConditions.find(conditions,
                RemediationConditions.PROCESSING).filter(c -> "True".equals(c.getStatus())
                && STARTED.equals(c.getMessage())).isPresent();
        if (t.decided || t.pending || !startedBefore) {
            return;
        }
        Optional<NodeFence> record = settings.engine.record(node);
        if (record.filter(r -> !r.isSettled() || !r.decidedAt().isBefore(created(cr))).isPresent()) {
            t.decided = true;
        }
    }

    /** When the remediation was created (the epoch if the API server did not say). */
    private static Instant created(NodeFenceRemediation cr) {
        String at = cr.getMetadata().getCreationTimestamp();
        return at == null ? Instant.EPOCH : Instant.parse(at);
    }

    /** Whether the remediation had ended ({@code Succeeded} True or False) before {@code instant}. */
    private static boolean endedBefore(NodeFenceRemediation cr, Instant instant) {
        List<Condition> conditions = cr.getStatus() == null ? List.of() : cr.getStatus().getConditions();
        return RemediationConditions.ended(conditions) && RemediationConditions.find(conditions,
                RemediationConditions.SUCCEEDED).map(Condition::getLastTransitionTime).map(Instant::parse)
                .filter(ended -> ended.isBefore(instant)).isPresent();
    }

    private StormAdmission.Verdict admission(String node) {
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
        return storm.admit(node, settings.client.nodes().list().getItems(), requested, remediating,
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
