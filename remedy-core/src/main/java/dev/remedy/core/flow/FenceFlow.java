package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Admin;
import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.core.flow.Observation.Readiness;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.time.Deadlines;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The NodeFence automaton, as a pure function of (record, plan, observation, time). Thread-safe and stateless
 * apart from its settings.
 *
 * <p>Safety rules it keeps: workloads are released only after a {@link Confirmation} (every method of a level
 * read OFF by STATUS, the node booted after the decision, or an admin confirmed; for a level of self fencing, the
 * reset assumed after the safe time, {@link Confirmation.Kind#ASSUMED_RESET_AFTER_SAFE_TIME}); a timeout is never a
 * confirmation; at most one operation is in flight; the out-of-service taint is lifted before the node is powered
 * on; a flow reaches FINAL through recovery only once the node is Ready again.
 *
 * <p>Isolation methods act by their {@link FencingKind}, read from the plan (never persisted): power and fabric
 * methods run OFF and, once the node is powered again, ON (un-fence) before the flow waits for Ready; an un-fence
 * that fails is retried until the step deadline and then fails the step, so a node still cut off from its fabric is
 * never declared recovered. Un-fencing covers every power and fabric method of every isolation level that may have
 * run ({@link NodeFence#isolationLevel()}), not only the level that succeeded: a method of a level that failed may
 * have turned its port OFF before another method of the level failed. Soft methods run REBOOT, which proves nothing
 * about power, and are not un-fenced; soft fencing is a gentle first try, never a blocker: when it fails on the last
 * isolation level (a dead host cannot take it), power fencing follows as if isolation had passed.
 *
 * <p>A topology may release after isolation ({@link dev.remedy.core.plan.ReleaseAfter#ISOLATION}, fabric fencing as Pacemaker counts it):
 * when every method of an isolation level reads isolated, the flow keeps a {@link Confirmation.Kind#ISOLATED}
 * confirmation, deletes the node's pods without the out-of-service taint ({@link ClusterAction#RELEASE_PODS}), and
 * goes on to stop the node: power management if the plan has it (whose OFF read back then replaces the confirmation,
 * and recovery follows as usual), otherwise a wait in {@link Stage#RACE_DELAY}, isolated, until the node reports a
 * boot after the decision or an administrator confirms it off. Being Ready again without a reboot does not end that
 * wait: the node's pods were released while it may have kept running.
 *
 * <p>Soft fencing can also spare the node power fencing (oVirt: restart the node agent, hard-fence only a host that
 * does not come back). When the isolation level that succeeded holds a soft method, the flow waits up to
 * {@link FlowSettings#softFenceGrace()} in {@link Stage#RACE_DELAY} before powering off; the power-management step
 * starts (its deadline runs) only when that grace ends, so the grace never shortens the budget of the power
 * operations. A node that reports Ready meanwhile ends the flow like any node Ready before a power operation; one that
 * reports a boot after the decision does so with a {@link Confirmation.Kind#REBOOTED_AFTER_DECISION} confirmation. A
 * boot after the decision reported while isolation is still running (a soft reboot in flight) is kept as that
 * confirmation, and the flow ends when isolation is over instead of powering the node off.
 */
public final class FenceFlow {

    /** Loop guard: a single observation never needs more stage changes than this. */
    private static final int MAX_HOPS = 32;

    private final FlowSettings settings;
    private final Moves moves;
    private final AdminCommands admin;
    private final AwaitReadyStage awaitReady;
    private final Map<Stage, StageHandler> stages = new EnumMap<>(Stage.class);

    /** A flow with these settings. */
    public FenceFlow(FlowSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.moves = new Moves(settings);
        this.admin = new AdminCommands(moves);
        this.awaitReady = new AwaitReadyStage(moves);
        stages.put(Stage.HOLD, new HoldStage(moves));
        stages.put(Stage.ISOLATE_CLUSTER, new IsolateClusterStage(moves));
        stages.put(Stage.ISOLATE_AGENTS, new IsolateAgentsStage(moves));
        stages.put(Stage.RACE_DELAY, new RaceDelayStage(moves));
        stages.put(Stage.POWER_OFF, new PowerOffStage(moves));
        stages.put(Stage.CONFIRM_OFF, new ConfirmOffStage(moves));
        stages.put(Stage.RELEASE, new ClusterStage(moves, FenceFlow::releaseAction, d -> {
            d.b.released(true);
            Confirmation by = d.current().confirmation().orElseThrow();
            String on = " on confirmation " + by.kind() + " by " + by.source();
            if (by.provesStopped()) {
                d.to(Stage.LIFT_OUT_OF_SERVICE, "workloads released" + on);
            } else {
                moves.enterRunning(d, "workloads released" + on + ": pods deleted, no out-of-service taint (the"
                        + " machine may still run)", Duration.ZERO);
            }
        }));
        stages.put(Stage.LIFT_OUT_OF_SERVICE, new ClusterStage(moves, ClusterAction.LIFT_OUT_OF_SERVICE, moves::powerOn));
        stages.put(Stage.POWER_ON, new PowerOnStage(moves));
        stages.put(Stage.UNFENCE, new UnfenceStage(moves));
        stages.put(Stage.AWAIT_READY, awaitReady);
        stages.put(Stage.RECOVER_AGENTS, new RecoverAgentsStage(moves));
        stages.put(Stage.RECOVER_CLUSTER, new ClusterStage(moves, ClusterAction.RECOVER,
                d -> d.to(Stage.FINISHED, "node recovered")));
        stages.put(Stage.FINISHED, d -> false);
        stages.put(Stage.FAILED, new FailedStage(moves));
    }

    /** Pods only when the release rests on isolation; otherwise the configured release strategy. */
    private static ClusterAction releaseAction(NodeFence r) {
        return r.confirmation().filter(Confirmation::provesStopped).isPresent() ? ClusterAction.RELEASE_WORKLOADS
                : ClusterAction.RELEASE_PODS;
    }

    /** The settings. */
    public FlowSettings settings() {
        return settings;
    }

    /** A new flow for {@code node}, decided at {@code now}. */
    public Transition decide(String node, Instant now, String reason) {
        return decide(node, now, reason, Optional.empty(), Duration.ZERO);
    }

    /**
     * A new flow for {@code node} that replaces {@code previous} (a settled flow of the same node): it continues the
     * previous record's version and operation numbering, so an operation of the old flow still waiting in an
     * executor can never be taken for one of the new flow. {@code raceDelay} (from storm protection: base, random and
     * priority delay) is added to the hold, so that of two nodes fencing each other one wins.
     */
    public Transition decide(String node, Instant now, String reason, Optional<NodeFence> previous,
                             Duration raceDelay) {
        NodeFence.Builder fresh = NodeFence.decided(node, now, Deadlines.plus(Deadlines.plus(now, settings.hold()), raceDelay), reason)
                .toBuilder();
        previous.ifPresent(p -> fresh.sequence(p.sequence()).version(p.version()));
        return new Transition(fresh.build(), List.of(), List.of(new FenceEvent.Transitioned(node, now, Stage.HOLD,
                Stage.HOLD, "fencing decided: " + reason)));
    }

    /**
     * Applies one observation.
     *
     * @throws IllegalTransitionException if the flow would take a transition outside the table (a bug)
     */
    public Transition apply(NodeFence record, NodePlan plan, Observation observation, Instant now) {
        Draft d = new Draft(record, plan, now);
        if (observation instanceof Admin command) {
            admin.apply(d, command);
        } else if (!record.isSettled() && record.state() != FenceState.FINAL) {
            if (observation instanceof Completed completed) {
                completed(d, completed);
            } else if (observation instanceof Readiness readiness) {
                ready(d, readiness);
            } else if (observation instanceof Observation.Recovered) {
                record.inFlight().ifPresent(d::reissue);
            } else if (record.pausedAt().isEmpty()) {
                lostOperation(d);
            }
        }
        advance(d);
        return d.transition();
    }

    /**
     * The earliest time at which a {@link Observation.Tick} can change {@code record}: a wait ending, a deadline,
     * an operation counted as lost. Empty when only another observation can (settled, paused). A reconcile pass
     * skips records whose wake time has not come, which keeps it cheap for thousands of idle nodes.
     */
    public Optional<Instant> nextWake(NodeFence record) {
        if (record.isSettled() || record.state() == FenceState.FINAL || record.pausedAt().isPresent()) {
            return Optional.empty();
        }
        if (record.inFlight().isPresent()) {
            return Optional.of(moves.budget().lostAt(record.inFlight().get()));
        }
        if (record.stage() == Stage.AWAIT_READY) {
            return Optional.of(awaitReady.deadline(record));
        }
        Instant wake = record.waitUntil().orElse(Instant.MIN);
        if (stages.get(record.stage()).deadlineApplies() && record.stepDeadline().isBefore(wake)) {
            wake = record.stepDeadline();
        }
        return Optional.of(wake);
    }

    // ---- observations ----

    private void ready(Draft d, Readiness readiness) {
        if (readiness.ready()) {
            Optional<Instant> rebooted = readiness.bootedAt().filter(boot -> boot.isAfter(d.original.decidedAt()));
            stages.get(d.original.stage()).ready(d, rebooted);
        }
    }

    private void lostOperation(Draft d) {
        d.original.inFlight().ifPresent(op -> {
            if (!d.now.isBefore(moves.budget().lostAt(op))) {
                completed(d, new Completed(op.id(), FenceStatus.TIMED_OUT, PowerState.UNKNOWN,
                        "no result within the operation's budget and grace; counted as timed out"));
            }
        });
    }

    /** The result of the operation in flight: recorded as an attempt, then handed to the stage that issued it. */
    private void completed(Draft d, Completed c) {
        Optional<Operation> op = d.original.inFlight().filter(o -> o.id().equals(c.operationId()));
        if (op.isEmpty()) {
            return;
        }
        String description = PlanWalk.describe(d.plan, op.get());
        d.b.inFlight(Optional.empty()).attempt(new Attempt(d.now, description, c.status(), c.detail()),
                settings.attemptLog());
        d.event(new FenceEvent.OperationFinished(d.node(), d.now, c.operationId(), description, c.status(),
                c.detail(), PlanWalk.agentType(d.plan, op.get())));
        stages.get(d.original.stage()).completed(d, c);
    }

    // ---- driving ----

    /** Issues the next operation or takes the next timed transition, until the flow has to wait. */
    private void advance(Draft d) {
        for (int hop = 0; hop < MAX_HOPS; hop++) {
            NodeFence r = d.current();
            if (r.isSettled() || r.state() == FenceState.FINAL || r.pausedAt().isPresent() || r.inFlight().isPresent()) {
                return;
            }
            StageHandler stage = stages.get(r.stage());
            boolean deadlinePassed = stage.deadlineApplies() && !d.now.isBefore(r.stepDeadline());
            if (r.waitUntil().filter(d.now::isBefore).isPresent() && !deadlinePassed) {
                return;
            }
            if (deadlinePassed) {
                moves.stepAttemptFailed(d, "step deadline passed", true);
            } else if (!stage.advance(d)) {
                return;
            }
        }
        throw new IllegalStateException("fence flow of " + d.node() + " did not settle within " + MAX_HOPS + " hops");
    }
}
