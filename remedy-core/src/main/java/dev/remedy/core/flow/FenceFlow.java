package dev.remedy.core.flow;

import dev.remedy.core.flow.Observation.Admin;
import dev.remedy.core.flow.Observation.Completed;
import dev.remedy.core.flow.Observation.Readiness;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The NodeFence automaton, as a pure function of (record, plan, observation, time). Thread-safe and stateless
 * apart from its settings.
 *
 * <p>Safety rules it keeps: workloads are released only after a {@link Confirmation} (every method of a level
 * read OFF by STATUS, the node booted after the decision, or an admin confirmed); a timeout is never a
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
 * <p>Soft fencing can also spare the node power fencing (oVirt: restart the node agent, hard-fence only a host that
 * does not come back). When the isolation level that succeeded holds a soft method, the flow waits up to
 * {@link FlowSettings#softFenceGrace()} in {@link Stage#RACE_DELAY} before the race delay; the power-management step
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

    /** A flow with these settings. */
    public FenceFlow(FlowSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
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
        NodeFence.Builder fresh = NodeFence.decided(node, now, now.plus(settings.hold()).plus(raceDelay), reason)
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
        if (observation instanceof Admin admin) {
            admin(d, admin);
        } else if (!record.isSettled() && record.state() != FenceState.FINAL) {
            if (observation instanceof Completed completed) {
                completed(d, completed);
            } else if (observation instanceof Readiness readiness) {
                readiness(d, readiness);
            } else if (observation instanceof Observation.Recovered) {
                record.inFlight().ifPresent(op -> d.effects.add(op.effect(record.node())));
            } else if (record.pausedAt().isEmpty()) {
                lostOperation(d);
            }
        }
        advance(d);
        return new Transition(d.b.build(), d.effects, d.events);
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
            Operation op = record.inFlight().get();
            return Optional.of(op.issuedAt().plus(op.budget()).plus(settings.operationGrace()));
        }
        if (record.stage() == Stage.AWAIT_READY) {
            return Optional.of(record.stageSince().plus(settings.awaitReady()));
        }
        Instant wake = record.waitUntil().orElse(Instant.MIN);
        if (deadlineApplies(record.stage()) && record.stepDeadline().isBefore(wake)) {
            wake = record.stepDeadline();
        }
        return Optional.of(wake);
    }

    // ---- observations ----

    private void admin(Draft d, Admin admin) {
        NodeFence r = d.original;
        String who = admin.actor();
        switch (admin.command()) {
            case PAUSE -> {
                if (r.isSettled() || r.pausedAt().isPresent()) {
                    d.refuse("cannot pause: flow is " + (r.pausedAt().isPresent() ? "already paused" : "over"));
                } else {
                    d.b.pausedAt(Optional.of(d.now)).reason("paused by " + who);
                }
            }
            case RESUME -> {
                if (r.pausedAt().isEmpty()) {
                    d.refuse("cannot resume: flow is not paused");
                } else {
                    Duration paused = nonNegative(Duration.between(r.pausedAt().get(), d.now));
                    d.b.pausedAt(Optional.empty()).step(r.stepStartedAt(), r.stepDeadline().plus(paused))
                            .waitUntil(r.waitUntil().map(w -> w.plus(paused))).reason("resumed by " + who)
                            .inFlight(r.inFlight().map(op -> op.delayedBy(paused)));
                    d.b.stage(r.stage(), r.stageSince().plus(paused));
                }
            }
            case FORCE_STOP -> {
                if (r.state() == FenceState.FINAL) {
                    d.refuse("cannot force-stop: flow is already FINAL");
                } else {
                    finish(d, "force-stopped by " + who);
                }
            }
            case CLEAR_ERROR -> {
                if (r.state() != FenceState.ERROR) {
                    d.refuse("cannot clear: flow is " + r.state() + ", not ERROR");
                } else {
                    finish(d, "ERROR cleared by " + who);
                }
            }
            case CONFIRM_OFF -> {
                boolean applies = (r.state() == FenceState.NEW || r.state() == FenceState.RUNNING
                        || (r.state() == FenceState.ERROR && !r.gaveUp())) && r.confirmation().isEmpty();
                if (!applies) {
                    d.refuse("manual confirmation does not apply: flow is " + r.state()
                            + (r.confirmation().isPresent() ? " and already confirmed" : ""));
                } else {
                    confirm(d, new Confirmation(Confirmation.Kind.MANUAL, who, d.now));
                    if (r.state() == FenceState.RUNNING && r.inFlight().isEmpty()) {
                        routeConfirmed(d);
                    }
                }
            }
        }
    }

    private void finish(Draft d, String why) {
        if (d.b.build().poweredOff()) {
            d.events.add(new FenceEvent.Alert(d.node(), d.now, "node " + d.node() + " may have been powered off by"
                    + " remedy and was not powered on again because the flow was closed (" + why + "); check it and"
                    + " power it on by hand when it is safe"));
        }
        d.b.inFlight(Optional.empty()).waitUntil(Optional.empty()).pausedAt(Optional.empty());
        d.to(Stage.FINISHED, why);
    }

    private void readiness(Draft d, Readiness readiness) {
        NodeFence r = d.original;
        if (!readiness.ready()) {
            return;
        }
        boolean rebooted = readiness.bootedAt().filter(boot -> boot.isAfter(r.decidedAt())).isPresent();
        switch (r.stage()) {
            case HOLD -> d.to(Stage.FINISHED, "node is Ready again during the hold; nothing was done");
            case ISOLATE_AGENTS -> {
                // e.g. a soft reboot still in flight whose node is already back: the boot is evidence that the node
                // stopped, and is kept so that the flow ends at enterRunning instead of powering the node off
                if (rebooted && r.confirmation().isEmpty()) {
                    confirm(d, new Confirmation(Confirmation.Kind.REBOOTED_AFTER_DECISION,
                            "booted at " + readiness.bootedAt().get(), d.now));
                    d.b.reason("node rebooted after the decision and is Ready; isolation goes on, then the flow ends"
                            + " without power fencing");
                }
            }
            case RACE_DELAY -> {
                if (r.inFlight().isEmpty() && !r.poweredOff() && r.levelConfirmed().isEmpty()) {
                    if (rebooted && r.confirmation().isEmpty()) {
                        confirm(d, new Confirmation(Confirmation.Kind.REBOOTED_AFTER_DECISION,
                                "booted at " + readiness.bootedAt().get(), d.now));
                        routeConfirmed(d);
                    } else {
                        enterDone(d, "node is Ready again before any power operation: no power management needed");
                    }
                }
            }
            case POWER_OFF, CONFIRM_OFF -> {
                if (rebooted && r.confirmation().isEmpty()) {
                    confirm(d, new Confirmation(Confirmation.Kind.REBOOTED_AFTER_DECISION,
                            "booted at " + readiness.bootedAt().get(), d.now));
                    if (r.inFlight().isEmpty()) {
                        d.b.poweredOff(false);
                        enterDone(d, "node rebooted after the decision and is Ready");
                    }
                }
            }
            case AWAIT_READY -> startStep(d, FenceStep.RECOVERY, Stage.RECOVER_AGENTS, "node is Ready again");
            default -> {
                // readiness changes nothing in the other stages
            }
        }
    }

    private void lostOperation(Draft d) {
        NodeFence r = d.original;
        r.inFlight().ifPresent(op -> {
            Instant lostAt = op.issuedAt().plus(op.budget()).plus(settings.operationGrace());
            if (!d.now.isBefore(lostAt)) {
                completed(d, new Completed(op.id(), FenceStatus.TIMED_OUT, PowerState.UNKNOWN,
                        "no result within the operation's budget and grace; counted as timed out"));
            }
        });
    }

    private void completed(Draft d, Completed c) {
        NodeFence r = d.original;
        Optional<Operation> op = r.inFlight().filter(o -> o.id().equals(c.operationId()));
        if (op.isEmpty()) {
            return;
        }
        String description = describe(d.plan, op.get());
        d.b.inFlight(Optional.empty()).attempt(new Attempt(d.now, description, c.status(), c.detail()),
                settings.attemptLog());
        d.events.add(new FenceEvent.OperationFinished(d.node(), d.now, c.operationId(), description,
                c.status(), c.detail()));
        boolean ok = c.status() == FenceStatus.SUCCEEDED;
        boolean timedOut = c.status() == FenceStatus.TIMED_OUT;
        switch (r.stage()) {
            case ISOLATE_CLUSTER -> {
                if (ok) {
                    d.to(Stage.ISOLATE_AGENTS, "node cordoned and tainted").b.position(0, 0);
                } else {
                    stepAttemptFailed(d, "isolating the node in the cluster failed: " + c.detail(), timedOut);
                }
            }
            case ISOLATE_AGENTS -> agentLevelResult(d, ok, timedOut, c.detail(), () -> {
                d.b.isolationLevelReached(r.level());
                enterRunning(d, "isolated by level " + (r.level() + 1), softFenceGrace(d, r.level()));
            });
            case POWER_OFF -> {
                if (r.confirmation().isPresent()) {
                    routeConfirmed(d);
                } else if (ok) {
                    d.to(Stage.CONFIRM_OFF, "OFF sent to " + methodName(d, r.level(), r.method())
                            + "; reading STATUS").b.waitUntil(Optional.empty());
                } else {
                    agentLevelResult(d, false, timedOut, c.detail(), () -> { });
                }
            }
            case CONFIRM_OFF -> confirmOffResult(d, c, ok);
            case RELEASE -> clusterResult(d, ok, () -> {
                d.b.released(true);
                d.to(Stage.LIFT_OUT_OF_SERVICE, "workloads released");
            });
            case LIFT_OUT_OF_SERVICE -> clusterResult(d, ok, () -> powerOn(d));
            case POWER_ON -> retryingResult(d, ok, nextPowerOn(d.plan, r), () -> {
                d.b.poweredOff(false);
                enterDone(d, "powered on again");
            });
            case UNFENCE -> retryingResult(d, ok, nextUnfence(d.plan, r.isolationLevel().orElse(-1), r.level(), r.method() + 1),
                    () -> d.to(Stage.AWAIT_READY, "isolation un-fenced; waiting for the node to be Ready"));
            case RECOVER_AGENTS -> agentLevelResult(d, ok, timedOut, c.detail(), () ->
                    d.to(Stage.RECOVER_CLUSTER, "recovery methods done"));
            case RECOVER_CLUSTER -> clusterResult(d, ok, () -> d.to(Stage.FINISHED, "node recovered"));
            default -> {
                // no operation runs in the other stages
            }
        }
    }

    private void confirmOffResult(Draft d, Completed c, boolean ok) {
        NodeFence r = d.original;
        if (r.confirmation().isPresent()) {
            routeConfirmed(d);
            return;
        }
        if (ok && c.power() == PowerState.OFF) {
            List<String> confirmed = new ArrayList<>(r.levelConfirmed());
            String name = methodName(d, r.level(), r.method());
            if (!confirmed.contains(name)) {
                confirmed.add(name);
            }
            d.b.levelConfirmed(confirmed).poweredOff(true);
            List<ResolvedMethod> level = d.plan.step(FenceStep.POWER_MANAGEMENT).levels().get(r.level());
            if (r.method() + 1 < level.size()) {
                d.to(Stage.POWER_OFF, name + " reads OFF").b.position(r.level(), r.method() + 1);
            } else {
                d.b.powerLevel(r.level());
                confirm(d, new Confirmation(Confirmation.Kind.STATUS_READ_OFF, String.join("+", confirmed), d.now));
                routeConfirmed(d);
            }
        } else {
            Duration waited = nonNegative(Duration.between(r.stageSince(), d.now));
            StepPlan plan = d.plan.step(FenceStep.POWER_MANAGEMENT);
            int levelsLeft = plan.levels().size() - r.level();
            Duration levelShare = nonNegative(Duration.between(r.stageSince(), r.stepDeadline())).dividedBy(levelsLeft);
            if (levelsLeft > 1 && waited.compareTo(levelShare) >= 0) {
                agentLevelResult(d, false, false, "STATUS still read " + c.power(), () -> { });
                return;
            }
            Duration backoff = clamp(waited.dividedBy(2), settings.backoffInitial(), settings.backoffMax());
            d.b.waitUntil(Optional.of(d.now.plus(backoff))).reason("STATUS of " + methodName(d, r.level(), r.method())
                    + " read " + c.power() + " (" + c.status() + "); polling again in " + backoff.toMillis() + " ms");
        }
    }

    /** Result of an agent operation in a stage whose levels are OR'ed and whose methods are AND'ed. */
    private void agentLevelResult(Draft d, boolean ok, boolean timedOut, String detail, Runnable levelDone) {
        NodeFence r = d.original;
        StepPlan plan = d.plan.step(r.step());
        if (ok) {
            if (r.method() + 1 < plan.levels().get(r.level()).size()) {
                d.b.position(r.level(), r.method() + 1);
            } else {
                levelDone.run();
            }
        } else if (r.level() + 1 < plan.levels().size()) {
            d.b.position(r.level() + 1, 0).levelConfirmed(List.of())
                    .reason("level " + (r.level() + 1) + " failed (" + detail + "); trying level " + (r.level() + 2));
            if (r.stage() == Stage.CONFIRM_OFF) {
                d.to(Stage.POWER_OFF, "level " + (r.level() + 1) + " did not read OFF in its share of the budget; "
                        + "trying level " + (r.level() + 2));
            }
        } else {
            stepAttemptFailed(d, "every level failed; last: " + detail, timedOut);
        }
    }

    /**
     * Result of an operation that must succeed (power on, un-fence): a failure is retried after a backoff until the
     * step deadline, which fails the step; a success moves to {@code next}, or, with nothing left, runs {@code done}.
     */
    private void retryingResult(Draft d, boolean ok, Optional<Position> next, Runnable done) {
        if (!ok) {
            d.b.waitUntil(Optional.of(d.now.plus(settings.backoffInitial())));
        } else if (next.isPresent()) {
            d.b.position(next.get().level(), next.get().method());
        } else {
            done.run();
        }
    }

    /** The method of the power level to power on after the one at {@code r}'s position, if any. */
    private static Optional<Position> nextPowerOn(NodePlan plan, NodeFence r) {
        int next = r.method() + 1;
        return next < plan.step(FenceStep.POWER_MANAGEMENT).levels().get(r.level()).size()
                ? Optional.of(new Position(r.level(), next)) : Optional.empty();
    }

    /**
     * The first isolation method at or after ({@code level}, {@code method}), in plan order, within levels
     * {@code 0..upTo}, that must be un-fenced; empty when none is left.
     */
    private static Optional<Position> nextUnfence(NodePlan plan, int upTo, int level, int method) {
        List<List<ResolvedMethod>> levels = plan.step(FenceStep.ISOLATION).levels();
        for (int l = Math.max(0, level); l <= Math.min(upTo, levels.size() - 1); l++) {
            List<ResolvedMethod> methods = levels.get(l);
            for (int m = l == level ? method : 0; m < methods.size(); m++) {
                if (needsUnfence(methods.get(m))) {
                    return Optional.of(new Position(l, m));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Whether an isolation method that may have run must be undone with ON: power and fabric methods (their OFF may
     * have taken effect even when the method or its level then failed); soft fencing leaves nothing to undo.
     */
    private static boolean needsUnfence(ResolvedMethod method) {
        return method.kind() != FencingKind.SOFT;
    }

    /**
     * The isolation methods that may still cut the node off, from ({@code level}, {@code method}) on within levels
     * {@code 0..upTo}, grouped by level ({@code level 1 (fabric, san), level 2 (switch)}); empty if none.
     */
    private static String stillIsolating(NodePlan plan, int upTo, int level, int method) {
        List<String> groups = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int current = -1;
        Optional<Position> p = nextUnfence(plan, upTo, level, method);
        while (p.isPresent()) {
            if (p.get().level() != current && !names.isEmpty()) {
                groups.add("level " + (current + 1) + " (" + String.join(", ", names) + ")");
                names.clear();
            }
            current = p.get().level();
            names.add(plan.step(FenceStep.ISOLATION).levels().get(current).get(p.get().method()).name());
            p = nextUnfence(plan, upTo, current, p.get().method() + 1);
        }
        if (!names.isEmpty()) {
            groups.add("level " + (current + 1) + " (" + String.join(", ", names) + ")");
        }
        return String.join(", ", groups);
    }

    /**
     * Whether a failure of the isolation step at {@code r}'s position is soft fencing on the last isolation level:
     * a soft method that failed, timed out, or had no budget left to start. Soft fencing needs a live host, and its
     * usual failure is a dead one, which is when power fencing must follow; so it never blocks the flow.
     */
    private static boolean softOnLastLevel(NodePlan plan, NodeFence r) {
        List<List<ResolvedMethod>> levels = plan.step(FenceStep.ISOLATION).levels();
        return r.stage() == Stage.ISOLATE_AGENTS && r.level() == levels.size() - 1
                && r.method() < levels.get(r.level()).size()
                && levels.get(r.level()).get(r.method()).kind() == FencingKind.SOFT;
    }

    /** What an isolation method runs: soft fencing has no OFF and fences by REBOOT; the other kinds run OFF. */
    private static FenceAction isolationAction(ResolvedMethod method) {
        return method.kind() == FencingKind.SOFT ? FenceAction.REBOOT : FenceAction.OFF;
    }

    /**
     * Result of an idempotent cluster action: retried with growing backoff; failing for longer than
     * {@link FlowSettings#clusterRetryWindow()} fails the step (the flow restarts, and eventually gives up with an
     * alert).
     */
    private void clusterResult(Draft d, boolean ok, Runnable done) {
        if (ok) {
            done.run();
            return;
        }
        NodeFence r = d.original;
        Duration failing = nonNegative(Duration.between(r.stageSince(), d.now));
        if (failing.compareTo(settings.clusterRetryWindow()) >= 0) {
            fail(d, "cluster action of stage " + r.stage().code() + " kept failing for " + failing);
        } else {
            Duration backoff = clamp(failing.dividedBy(2), settings.backoffInitial(), settings.backoffMax());
            d.b.waitUntil(Optional.of(d.now.plus(backoff)));
        }
    }

    // ---- stage entries ----

    /**
     * Isolation is over: RACE_DELAY, which waits {@code softGrace} (for a soft-fenced node to report Ready), then the
     * race delay, then powers off. The power-management step starts when the grace ends: its start and deadline are
     * moved by the grace, so the power operations get the same budget as without one (the race delay still counts
     * against the step, as it always did). With a confirmation in hand, the flow routes it at once instead.
     */
    private void enterRunning(Draft d, String why, Duration softGrace) {
        boolean grace = !softGrace.isZero() && d.b.build().confirmation().isEmpty();
        startStep(d, FenceStep.POWER_MANAGEMENT, Stage.RACE_DELAY, grace ? why + "; soft fencing succeeded: waiting up"
                + " to " + softGrace + " for the node to report Ready before power fencing" : why);
        Instant stepStart = grace ? d.now.plus(softGrace) : d.now;
        d.b.step(stepStart, stepStart.plus(d.plan.step(FenceStep.POWER_MANAGEMENT).timeout()))
                .waitUntil(Optional.of(stepStart.plus(raceDelay(d.node(), d.b.build().restarts()))));
        if (d.b.build().confirmation().isPresent()) {
            routeConfirmed(d);
        }
    }

    /**
     * The wait for Ready owed to isolation level {@code level}, which has just succeeded: the soft-fence grace if the
     * level holds a soft method (each of its methods succeeded), unless remedy may already have powered the node off
     * (a restart after an OFF), which no soft fencing can bring back.
     */
    private Duration softFenceGrace(Draft d, int level) {
        boolean soft = d.plan.step(FenceStep.ISOLATION).levels().get(level).stream()
                .anyMatch(m -> m.kind() == FencingKind.SOFT);
        return soft && !d.b.build().poweredOff() ? settings.softFenceGrace() : Duration.ZERO;
    }

    /** With a confirmation in hand: release, lift, power on, or go straight to DONE. */
    private void routeConfirmed(Draft d) {
        NodeFence now = d.b.build();
        Confirmation.Kind kind = now.confirmation().orElseThrow().kind();
        if (kind == Confirmation.Kind.REBOOTED_AFTER_DECISION && now.poweredOff()) {
            d.to(Stage.LIFT_OUT_OF_SERVICE, "node rebooted after the decision, but an OFF was sent meanwhile;"
                    + " powering it on again").b.waitUntil(Optional.empty());
        } else if (kind == Confirmation.Kind.REBOOTED_AFTER_DECISION) {
            enterDone(d, "node rebooted after the decision: its workloads stopped");
        } else if (!now.released()) {
            d.to(Stage.RELEASE, "fencing confirmed; releasing workloads").b.waitUntil(Optional.empty());
        } else {
            d.to(Stage.LIFT_OUT_OF_SERVICE, "workloads released; lifting the out-of-service taint")
                    .b.waitUntil(Optional.empty());
        }
    }

    /** After the out-of-service taint is lifted: power on through the level that powered off (or the first). */
    private void powerOn(Draft d) {
        NodeFence now = d.b.build();
        if (d.plan.step(FenceStep.POWER_MANAGEMENT).levels().isEmpty()) {
            enterDone(d, "out-of-service taint lifted; no power method to power on with");
            return;
        }
        int level = now.powerLevel().orElse(0);
        d.b.powerLevel(level).step(d.now, d.now.plus(d.plan.step(FenceStep.POWER_MANAGEMENT).timeout()));
        d.to(Stage.POWER_ON, "out-of-service taint lifted; powering on").b.position(level, 0);
    }

    /**
     * The node is stopped and powered again (or never needed it): un-fence, in plan order, every power and fabric
     * method of every isolation level that may have run (levels {@code 0..isolationLevel}), skipping soft methods;
     * then wait for Ready.
     */
    private void enterDone(Draft d, String why) {
        NodeFence now = d.b.build();
        OptionalInt upTo = now.isolationLevel();
        d.b.waitUntil(Optional.empty()).position(0, 0);
        Optional<Position> first = upTo.isPresent() ? nextUnfence(d.plan, upTo.getAsInt(), 0, 0) : Optional.empty();
        if (first.isPresent()) {
            d.b.position(first.get().level(), first.get().method())
                    .step(d.now, d.now.plus(d.plan.step(FenceStep.ISOLATION).timeout()));
            d.to(Stage.UNFENCE, why + "; un-fencing isolation methods");
        } else if (upTo.isPresent()) {
            d.to(Stage.AWAIT_READY, why + "; the isolation that ran was soft fencing only, with nothing to un-fence;"
                    + " waiting for the node to be Ready");
        } else {
            d.to(Stage.AWAIT_READY, why + "; waiting for the node to be Ready");
        }
    }

    private void startStep(Draft d, FenceStep step, Stage stage, String why) {
        Duration timeout = d.plan.step(step).timeout();
        d.b.step(d.now, d.now.plus(timeout)).retries(0).position(0, 0).levelConfirmed(List.of())
                .waitUntil(Optional.empty());
        d.to(stage, why);
    }

    private void stepAttemptFailed(Draft d, String why, boolean timedOut) {
        NodeFence now = d.b.build();
        if (softOnLastLevel(d.plan, now)) {
            String method = d.plan.step(FenceStep.ISOLATION).levels().get(now.level()).get(now.method()).name();
            enterRunning(d, "soft fencing by " + method + " on the last isolation level (" + (now.level() + 1)
                    + ") failed (" + why + "): power fencing follows", Duration.ZERO);
            return;
        }
        StepPlan plan = d.plan.step(now.step());
        Duration left = nonNegative(Duration.between(d.now, now.stepDeadline()));
        boolean budgetLeft = left.toMillis() >= (long) (plan.timeout().toMillis() * settings.minRetryShare());
        if (now.retries() < plan.retries() && !timedOut && budgetLeft) {
            Stage restartAt = switch (now.step()) {
                case ISOLATION -> Stage.ISOLATE_CLUSTER;
                case POWER_MANAGEMENT -> Stage.POWER_OFF;
                case RECOVERY -> Stage.RECOVER_AGENTS;
            };
            d.b.retries(now.retries() + 1).position(0, 0).levelConfirmed(List.of())
                    .waitUntil(Optional.of(d.now.plus(settings.backoffInitial())));
            d.to(restartAt, why + "; retry " + (now.retries() + 1) + " of " + plan.retries());
        } else {
            fail(d, why + (timedOut ? " (timed out: not retried)" : budgetLeft ? "" : " (too little budget left to retry)"));
        }
    }

    private void fail(Draft d, String why) {
        NodeFence now = d.b.build();
        d.b.inFlight(Optional.empty());
        if (now.restarts() < settings.maxRestarts()) {
            d.b.waitUntil(Optional.of(d.now.plus(settings.restartDelay())));
            d.to(Stage.FAILED, "step " + now.step().code() + " failed: " + why + "; restart "
                    + (now.restarts() + 1) + " of " + settings.maxRestarts() + " in " + settings.restartDelay());
        } else {
            String cutOff = switch (now.stage().state()) {
                case NEW, RUNNING -> stillIsolating(d.plan, now.isolationLevel().orElse(-1), 0, 0);
                default -> now.stage() == Stage.UNFENCE
                        ? stillIsolating(d.plan, now.isolationLevel().orElse(-1), now.level(), now.method()) : "";
            };
            d.b.gaveUp(true).waitUntil(Optional.empty());
            d.to(Stage.FAILED, "step " + now.step().code() + " failed: " + why + "; gave up after "
                    + now.restarts() + " restarts");
            d.events.add(new FenceEvent.Alert(d.node(), d.now, "fencing of " + d.node() + " gave up: " + why
                    + ". remedy will not touch the node again until an admin clears the ERROR"
                    + (now.poweredOff() ? "; the node was powered off by remedy and is still off" : "")
                    + (cutOff.isEmpty() ? "" : "; the node may still be cut off by isolation " + cutOff
                    + ": run ON on its methods by hand before it rejoins")));
        }
    }

    private void confirm(Draft d, Confirmation confirmation) {
        d.b.confirmation(Optional.of(confirmation));
        d.events.add(new FenceEvent.Confirmed(d.node(), d.now, confirmation));
    }

    // ---- driving ----

    /** Issues the next operation or takes the next timed transition, until the flow has to wait. */
    private void advance(Draft d) {
        for (int hop = 0; hop < MAX_HOPS; hop++) {
            NodeFence r = d.b.build();
            if (r.isSettled() || r.state() == FenceState.FINAL || r.pausedAt().isPresent() || r.inFlight().isPresent()) {
                return;
            }
            if (r.waitUntil().filter(d.now::isBefore).isPresent()) {
                if (deadlineApplies(r.stage()) && deadlinePassed(d, r)) {
                    stepAttemptFailed(d, "step deadline passed", true);
                    continue;
                }
                return;
            }
            if (!step(d, r)) {
                return;
            }
        }
        throw new IllegalStateException("fence flow of " + d.node() + " did not settle within " + MAX_HOPS + " hops");
    }

    /** One move from {@code r}; false when the flow must wait for an observation. */
    private boolean step(Draft d, NodeFence r) {
        switch (r.stage()) {
            case HOLD -> {
                startStep(d, FenceStep.ISOLATION, Stage.ISOLATE_CLUSTER, "hold period over");
                return true;
            }
            case FAILED -> {
                d.b.restarts(r.restarts() + 1).retries(0);
                startStep(d, FenceStep.ISOLATION, Stage.ISOLATE_CLUSTER, "restarting the flow ("
                        + (r.restarts() + 1) + " of " + settings.maxRestarts() + ")");
                return true;
            }
            case AWAIT_READY -> {
                if (!d.now.isBefore(r.stageSince().plus(settings.awaitReady()))) {
                    fail(d, "node was not Ready within " + settings.awaitReady());
                    return true;
                }
                return false;
            }
            case FINISHED -> {
                return false;
            }
            default -> {
                // stages that issue operations
            }
        }
        if (deadlineApplies(r.stage()) && deadlinePassed(d, r)) {
            stepAttemptFailed(d, "step deadline passed", true);
            return true;
        }
        return issue(d, r);
    }

    private boolean issue(Draft d, NodeFence r) {
        switch (r.stage()) {
            case ISOLATE_CLUSTER -> cluster(d, ClusterAction.ISOLATE);
            case RELEASE -> cluster(d, ClusterAction.RELEASE_WORKLOADS);
            case LIFT_OUT_OF_SERVICE -> cluster(d, ClusterAction.LIFT_OUT_OF_SERVICE);
            case RECOVER_CLUSTER -> cluster(d, ClusterAction.RECOVER);
            case ISOLATE_AGENTS -> {
                if (d.plan.step(FenceStep.ISOLATION).levels().isEmpty()) {
                    enterRunning(d, "isolated (no isolation methods configured)", Duration.ZERO);
                } else {
                    ResolvedMethod method = d.plan.step(FenceStep.ISOLATION).levels().get(r.level()).get(r.method());
                    agent(d, FenceStep.ISOLATION, r.level(), r.method(), isolationAction(method));
                }
            }
            case RACE_DELAY -> {
                if (d.plan.step(FenceStep.POWER_MANAGEMENT).levels().isEmpty()) {
                    fail(d, "no power management method is configured for " + d.node()
                            + ", so remedy cannot confirm it is off; add a level or confirm by hand");
                } else {
                    d.to(Stage.POWER_OFF, "fence-race delay over").b.position(0, 0);
                }
            }
            case POWER_OFF -> agent(d, FenceStep.POWER_MANAGEMENT, r.level(), r.method(), FenceAction.OFF);
            case CONFIRM_OFF -> agent(d, FenceStep.POWER_MANAGEMENT, r.level(), r.method(), FenceAction.STATUS);
            case POWER_ON -> agent(d, FenceStep.POWER_MANAGEMENT, r.powerLevel().orElse(0), r.method(), FenceAction.ON);
            case UNFENCE -> agent(d, FenceStep.ISOLATION, r.level(), r.method(), FenceAction.ON);
            case RECOVER_AGENTS -> {
                if (d.plan.step(FenceStep.RECOVERY).levels().isEmpty()) {
                    d.to(Stage.RECOVER_CLUSTER, "no recovery methods configured");
                } else {
                    agent(d, FenceStep.RECOVERY, r.level(), r.method(), FenceAction.ON);
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the step deadline ends this stage. Cluster actions are idempotent and retried with backoff instead,
     * and the hold, race delay and restart wait have their own timers.
     */
    private static boolean deadlineApplies(Stage stage) {
        return switch (stage) {
            case ISOLATE_AGENTS, POWER_OFF, CONFIRM_OFF, POWER_ON, UNFENCE, RECOVER_AGENTS -> true;
            default -> false;
        };
    }

    private static boolean deadlinePassed(Draft d, NodeFence r) {
        return !d.now.isBefore(r.stepDeadline());
    }

    private void agent(Draft d, FenceStep step, int level, int method, FenceAction action) {
        NodeFence r = d.b.build();
        StepPlan plan = d.plan.step(step);
        Duration left = nonNegative(Duration.between(d.now, r.stepDeadline()));
        int levelsLeft = Math.max(1, plan.levels().size() - level);
        int methodsLeft = Math.max(1, plan.levels().get(level).size() - method);
        Duration share = left.dividedBy(levelsLeft).dividedBy(methodsLeft);
        Duration budget = share.compareTo(settings.minOperationBudget()) < 0 ? settings.minOperationBudget() : share;
        if (budget.compareTo(left) > 0) {
            budget = left;
        }
        if (budget.compareTo(settings.minOperationBudget()) < 0 && r.stage() != Stage.POWER_ON
                && r.stage() != Stage.UNFENCE) {
            stepAttemptFailed(d, "only " + left.toMillis() + " ms of the step budget left", true);
            return;
        }
        if (budget.compareTo(settings.minOperationBudget()) < 0) {
            budget = settings.minOperationBudget();
        }
        Operation op = new Operation.Agent(d.node() + "#" + d.b.nextSequence(), step, level, method, action, d.now,
                budget);
        if (step == FenceStep.POWER_MANAGEMENT && action == FenceAction.OFF) {
            d.b.poweredOff(true);
        }
        if (step == FenceStep.ISOLATION && action != FenceAction.ON) {
            d.b.isolationLevelReached(level);
        }
        d.issue(op, describe(d.plan, op));
    }

    private void cluster(Draft d, ClusterAction action) {
        Operation op = new Operation.Cluster(d.node() + "#" + d.b.nextSequence(), d.b.stage().step(), action, d.now,
                settings.clusterBudget());
        d.issue(op, describe(d.plan, op));
    }

    /**
     * {@code power_management L1 bmc off}. Interned: thousands of records and history entries share a handful of
     * descriptions, and each would otherwise hold its own copy.
     */
    private static String describe(NodePlan plan, Operation op) {
        if (op instanceof Operation.Agent agent) {
            return (agent.step().code() + " L" + (agent.level() + 1) + " "
                    + plan.step(agent.step()).levels().get(agent.level()).get(agent.method()).name() + " "
                    + agent.action().code()).intern();
        }
        return ("cluster " + ((Operation.Cluster) op).action().code()).intern();
    }

    private static String methodName(Draft d, int level, int method) {
        return d.plan.step(FenceStep.POWER_MANAGEMENT).levels().get(level).get(method).name();
    }

    private Duration raceDelay(String node, int restarts) {
        long maxMillis = settings.raceDelayMax().toMillis();
        long spread = maxMillis == 0 ? 0 : Math.floorMod((node.hashCode() * 31L + restarts) * 0x9E3779B97F4A7C15L,
                maxMillis + 1);
        return settings.raceDelayBase().plusMillis(spread);
    }

    private static Duration clamp(Duration value, Duration min, Duration max) {
        return value.compareTo(min) < 0 ? min : value.compareTo(max) > 0 ? max : value;
    }

    private static Duration nonNegative(Duration value) {
        return value.isNegative() ? Duration.ZERO : value;
    }

    /** A method's place in a step plan. */
    private record Position(int level, int method) {
    }

    /** The mutable working copy of one application. */
    private static final class Draft {
        private final NodeFence original;
        private final NodePlan plan;
        private final Instant now;
        private final NodeFence.Builder b;
        private final List<Effect> effects = new ArrayList<>();
        private final List<FenceEvent> events = new ArrayList<>();

        Draft(NodeFence original, NodePlan plan, Instant now) {
            this.original = original;
            this.plan = plan;
            this.now = now;
            this.b = original.toBuilder();
        }

        String node() {
            return original.node();
        }

        Draft to(Stage stage, String why) {
            Stage from = b.stage();
            Transitions.check(node(), from.state(), stage.state());
            b.stage(stage, now).reason(why);
            events.add(new FenceEvent.Transitioned(node(), now, from, stage, why));
            return this;
        }

        void issue(Operation op, String description) {
            b.inFlight(Optional.of(op));
            effects.add(op.effect(node()));
            events.add(new FenceEvent.OperationIssued(node(), now, op.id(), description));
        }

        void refuse(String why) {
            events.add(new FenceEvent.Refused(node(), now, why));
        }
    }
}
