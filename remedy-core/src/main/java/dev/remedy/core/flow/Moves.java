package dev.remedy.core.flow;

import dev.remedy.core.flow.PlanWalk.Position;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.time.Deadlines;
import dev.remedy.spi.FenceAction;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The moves that several stages share: entering a step or a stage that needs set-up, issuing operations, turning a
 * result into the next move, failing a step. Thread-safe and stateless apart from the settings.
 */
final class Moves {

    private final FlowSettings settings;
    private final TimeBudget budget;

    Moves(FlowSettings settings) {
        this.settings = settings;
        this.budget = new TimeBudget(settings);
    }

    FlowSettings settings() {
        return settings;
    }

    TimeBudget budget() {
        return budget;
    }

    /** Whether {@code r} holds evidence that its node is stopped (not only isolated). */
    static boolean stopConfirmed(NodeFence r) {
        return r.confirmation().filter(Confirmation::provesStopped).isPresent();
    }

    // ---- issuing ----

    /** Issues {@code action} on a method of {@code step}'s plan, within its share of the step's budget. */
    void agent(Draft d, FenceStep step, int level, int method, FenceAction action) {
        NodeFence r = d.current();
        Optional<Duration> share = budget.operation(d.plan.step(step), d.now, r.stepDeadline(), level, method);
        boolean mustRun = r.stage() == Stage.POWER_ON || r.stage() == Stage.UNFENCE;
        if (share.isEmpty() && !mustRun) {
            stepAttemptFailed(d, "only " + Deadlines.millis(TimeBudget.left(d.now, r.stepDeadline()))
                    + " ms of the step budget left", true);
            return;
        }
        Operation op = new Operation.Agent(d.node() + "#" + d.b.nextSequence(), step, level, method, action, d.now,
                share.orElse(settings.minOperationBudget()));
        if (step == FenceStep.POWER_MANAGEMENT && action == FenceAction.OFF) {
            d.b.poweredOff(true);
        }
        if (step == FenceStep.ISOLATION && action != FenceAction.ON) {
            d.b.isolationLevelReached(level);
        }
        d.issue(op, PlanWalk.describe(d.plan, op));
    }

    /** Issues a cluster action. */
    void cluster(Draft d, ClusterAction action) {
        Operation op = new Operation.Cluster(d.node() + "#" + d.b.nextSequence(), d.b.stage().step(), action, d.now,
                settings.clusterBudget());
        d.issue(op, PlanWalk.describe(d.plan, op));
    }

    // ---- entering steps and stages ----

    void startStep(Draft d, FenceStep step, Stage stage, String why) {
        Duration timeout = d.plan.step(step).timeout();
        d.b.step(d.now, Deadlines.plus(d.now, timeout)).retries(0).position(0, 0).levelConfirmed(List.of())
                .waitUntil(Optional.empty());
        d.to(stage, why);
    }

    /**
     * Isolation is over: RACE_DELAY, which waits {@code softGrace} (for a soft-fenced node to report Ready), then
     * powers off. The power-management step starts when the grace ends: its start and deadline are moved by the grace,
     * so the power operations get the same budget as without one. With a confirmation in hand, the flow routes it at
     * once instead.
     */
    void enterRunning(Draft d, String why, Duration softGrace) {
        boolean grace = !softGrace.isZero() && !stopConfirmed(d.current());
        startStep(d, FenceStep.POWER_MANAGEMENT, Stage.RACE_DELAY, grace ? why + "; soft fencing succeeded: waiting up"
                + " to " + softGrace + " for the node to report Ready before power fencing" : why);
        Instant stepStart = grace ? Deadlines.plus(d.now, softGrace) : d.now;
        d.b.step(stepStart, Deadlines.plus(stepStart, d.plan.step(FenceStep.POWER_MANAGEMENT).timeout()))
                .waitUntil(Optional.of(stepStart));
        if (stopConfirmed(d.current())) {
            routeConfirmed(d);
        }
    }

    /**
     * The wait for Ready owed to isolation level {@code level}, which has just succeeded: the soft-fence grace if the
     * level holds a soft method (each of its methods succeeded), unless remedy may already have powered the node off
     * (a restart after an OFF), which no soft fencing can bring back.
     */
    Duration softFenceGrace(Draft d, int level) {
        return PlanWalk.softLevel(d.plan, level) && !d.current().poweredOff() ? settings.softFenceGrace()
                : Duration.ZERO;
    }

    /**
     * With a confirmation that the node is stopped in hand: release, lift, power on, or go straight to DONE. (An
     * isolation confirmation routes through {@link #releaseIsolated} instead.)
     */
    void routeConfirmed(Draft d) {
        NodeFence now = d.current();
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

    /**
     * Isolation level {@code level} read isolated in a plan that releases after isolation: keep that as the
     * confirmation and release the pods (power management, if any, follows the release); once released (a restart),
     * on to power management.
     */
    void releaseIsolated(Draft d, int level) {
        d.b.isolationLevelReached(level);
        String why = "isolated by level " + (level + 1) + ", which its topology trusts to release workloads"
                + " (releaseAfter: isolation)";
        if (d.current().released()) {
            enterRunning(d, why + "; workloads already released", Duration.ZERO);
            return;
        }
        String methods = d.plan.step(FenceStep.ISOLATION).levels().get(level).stream()
                .map(ResolvedMethod::name).collect(Collectors.joining("+"));
        d.confirm(new Confirmation(Confirmation.Kind.ISOLATED, methods, d.now));
        startStep(d, FenceStep.POWER_MANAGEMENT, Stage.RELEASE, why + "; deleting its pods");
    }

    /** After the out-of-service taint is lifted: power on through the level that powered off (or the first). */
    void powerOn(Draft d) {
        NodeFence now = d.current();
        if (d.plan.step(FenceStep.POWER_MANAGEMENT).levels().isEmpty()) {
            enterDone(d, "out-of-service taint lifted; no power method to power on with");
            return;
        }
        int level = now.powerLevel().orElse(0);
        d.b.powerLevel(level).step(d.now, Deadlines.plus(d.now, d.plan.step(FenceStep.POWER_MANAGEMENT).timeout()));
        d.to(Stage.POWER_ON, "out-of-service taint lifted; powering on").b.position(level, 0);
    }

    /**
     * The node is stopped and powered again (or never needed it): un-fence, in plan order, every power and fabric
     * method of every isolation level that may have run (levels {@code 0..isolationLevel}), skipping soft methods;
     * then wait for Ready.
     */
    void enterDone(Draft d, String why) {
        OptionalInt upTo = d.current().isolationLevel();
        d.b.waitUntil(Optional.empty()).position(0, 0);
        Optional<Position> first = upTo.isPresent() ? PlanWalk.nextUnfence(d.plan, upTo.getAsInt(), 0, 0)
                : Optional.empty();
        if (first.isPresent()) {
            d.b.position(first.get().level(), first.get().method())
                    .step(d.now, Deadlines.plus(d.now, d.plan.step(FenceStep.ISOLATION).timeout()));
            d.to(Stage.UNFENCE, why + "; un-fencing isolation methods");
        } else if (upTo.isPresent()) {
            d.to(Stage.AWAIT_READY, why + "; the isolation that ran was soft fencing only, with nothing to un-fence;"
                    + " waiting for the node to be Ready");
        } else {
            d.to(Stage.AWAIT_READY, why + "; waiting for the node to be Ready");
        }
    }

    /** Ends the flow now (FINAL), with an alert when the node may have been left powered off. */
    void finish(Draft d, String why) {
        if (d.current().poweredOff()) {
            d.alert("node " + d.node() + " may have been powered off by remedy and was not powered on again because"
                    + " the flow was closed (" + why + "); check it and power it on by hand when it is safe");
        }
        d.b.inFlight(Optional.empty()).waitUntil(Optional.empty()).pausedAt(Optional.empty());
        d.to(Stage.FINISHED, why);
    }

    /** A reboot after the decision, reported while the flow waits: the evidence that the node stopped. */
    void confirmReboot(Draft d, Instant bootedAt) {
        d.confirm(new Confirmation(Confirmation.Kind.REBOOTED_AFTER_DECISION, "booted at " + bootedAt, d.now));
    }

    // ---- results ----

    /** Result of an agent operation in a stage whose levels are OR'ed and whose methods are AND'ed. */
    void agentLevelResult(Draft d, boolean ok, boolean timedOut, String detail, Runnable levelDone) {
        NodeFence r = d.original;
        if (ok) {
            if (!PlanWalk.lastOfLevel(d.plan, r.step(), r.level(), r.method())) {
                d.b.position(r.level(), r.method() + 1);
            } else {
                levelDone.run();
            }
        } else if (!PlanWalk.lastLevel(d.plan, r.step(), r.level())) {
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
    void retryingResult(Draft d, boolean ok, Optional<Position> next, Runnable done) {
        if (!ok) {
            d.b.waitUntil(Optional.of(Deadlines.plus(d.now, settings.backoffInitial())));
        } else if (next.isPresent()) {
            d.b.position(next.get().level(), next.get().method());
        } else {
            done.run();
        }
    }

    /**
     * Result of an idempotent cluster action: retried with growing backoff; failing for longer than
     * {@link FlowSettings#clusterRetryWindow()} fails the step (the flow restarts, and eventually gives up with an
     * alert).
     */
    void clusterResult(Draft d, boolean ok, Runnable done) {
        if (ok) {
            done.run();
            return;
        }
        NodeFence r = d.original;
        Duration failing = TimeBudget.left(r.stageSince(), d.now);
        if (failing.compareTo(settings.clusterRetryWindow()) >= 0) {
            fail(d, "cluster action of stage " + r.stage().code() + " kept failing for " + failing);
        } else {
            d.b.waitUntil(Optional.of(Deadlines.plus(d.now, budget.backoff(failing))));
        }
    }

    // ---- failing ----

    /**
     * An attempt of the current step failed: retried from the step's first stage while retries and enough budget
     * are left and the attempt did not time out; otherwise the step fails. Soft fencing on the last isolation level
     * never fails the step: power fencing follows.
     */
    void stepAttemptFailed(Draft d, String why, boolean timedOut) {
        NodeFence now = d.current();
        if (PlanWalk.softOnLastLevel(d.plan, now)) {
            String method = PlanWalk.method(d.plan, FenceStep.ISOLATION, now.level(), now.method()).name();
            enterRunning(d, "soft fencing by " + method + " on the last isolation level (" + (now.level() + 1)
                    + ") failed (" + why + "): power fencing follows", Duration.ZERO);
            return;
        }
        StepPlan plan = d.plan.step(now.step());
        boolean budgetLeft = budget.retryFits(plan, d.now, now.stepDeadline());
        if (now.retries() < plan.retries() && !timedOut && budgetLeft) {
            Stage restartAt = switch (now.step()) {
                case ISOLATION -> Stage.ISOLATE_CLUSTER;
                case POWER_MANAGEMENT -> Stage.POWER_OFF;
                case RECOVERY -> Stage.RECOVER_AGENTS;
            };
            d.b.retries(now.retries() + 1).position(0, 0).levelConfirmed(List.of())
                    .waitUntil(Optional.of(Deadlines.plus(d.now, settings.backoffInitial())));
            d.to(restartAt, why + "; retry " + (now.retries() + 1) + " of " + plan.retries());
        } else {
            fail(d, why + (timedOut ? " (timed out: not retried)" : budgetLeft ? "" : " (too little budget left to retry)"));
        }
    }

    /**
     * The step failed: ERROR, restarted after the restart delay while restarts are left, otherwise given up with an
     * alert that says what remedy left behind (a node powered off, isolation methods still cutting it off).
     */
    void fail(Draft d, String why) {
        NodeFence now = d.current();
        d.b.inFlight(Optional.empty());
        if (now.restarts() < settings.maxRestarts()) {
            d.b.waitUntil(Optional.of(Deadlines.plus(d.now, settings.restartDelay())));
            d.to(Stage.FAILED, "step " + now.step().code() + " failed: " + why + "; restart "
                    + (now.restarts() + 1) + " of " + settings.maxRestarts() + " in " + settings.restartDelay());
            return;
        }
        int isolated = now.isolationLevel().orElse(-1);
        String cutOff = switch (now.stage().state()) {
            case NEW, RUNNING -> PlanWalk.stillIsolating(d.plan, isolated, 0, 0);
            default -> now.stage() == Stage.UNFENCE
                    ? PlanWalk.stillIsolating(d.plan, isolated, now.level(), now.method()) : "";
        };
        d.b.gaveUp(true).waitUntil(Optional.empty());
        d.to(Stage.FAILED, "step " + now.step().code() + " failed: " + why + "; gave up after "
                + now.restarts() + " restarts");
        d.alert("fencing of " + d.node() + " gave up: " + why
                + ". remedy will not touch the node again until an admin clears the ERROR"
                + (now.poweredOff() ? "; the node was powered off by remedy and is still off" : "")
                + (cutOff.isEmpty() ? "" : "; the node may still be cut off by isolation " + cutOff
                + ": run ON on its methods by hand before it rejoins"));
    }
}
