package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Walks a node's plan: which method comes next, which ones must be un-fenced, how operations are described.
 * Stateless; every method is a pure function of the plan and the record's position.
 */
final class PlanWalk {

    /** A method's place in a step plan. */
    record Position(int level, int method) {
    }

    private PlanWalk() {
    }

    static List<List<ResolvedMethod>> levels(NodePlan plan, FenceStep step) {
        return plan.step(step).levels();
    }

    static ResolvedMethod method(NodePlan plan, FenceStep step, int level, int method) {
        return levels(plan, step).get(level).get(method);
    }

    /** Whether {@code method} is the last method of its level. */
    static boolean lastOfLevel(NodePlan plan, FenceStep step, int level, int method) {
        return method + 1 >= levels(plan, step).get(level).size();
    }

    /** Whether {@code level} is the last level of the step. */
    static boolean lastLevel(NodePlan plan, FenceStep step, int level) {
        return level + 1 >= levels(plan, step).size();
    }

    /** The method of the power level to power on after the one at {@code r}'s position, if any. */
    static Optional<Position> nextPowerOn(NodePlan plan, NodeFence r) {
        return lastOfLevel(plan, FenceStep.POWER_MANAGEMENT, r.level(), r.method()) ? Optional.empty()
                : Optional.of(new Position(r.level(), r.method() + 1));
    }

    /**
     * The first isolation method at or after ({@code level}, {@code method}), in plan order, within levels
     * {@code 0..upTo}, that must be un-fenced; empty when none is left.
     */
    static Optional<Position> nextUnfence(NodePlan plan, int upTo, int level, int method) {
        List<List<ResolvedMethod>> levels = levels(plan, FenceStep.ISOLATION);
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
    static String stillIsolating(NodePlan plan, int upTo, int level, int method) {
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
            names.add(method(plan, FenceStep.ISOLATION, current, p.get().method()).name());
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
    static boolean softOnLastLevel(NodePlan plan, NodeFence r) {
        List<List<ResolvedMethod>> levels = levels(plan, FenceStep.ISOLATION);
        return r.stage() == Stage.ISOLATE_AGENTS && r.level() == levels.size() - 1
                && r.method() < levels.get(r.level()).size()
                && levels.get(r.level()).get(r.method()).kind() == FencingKind.SOFT;
    }

    /** Whether isolation level {@code level} holds a soft-fencing method. */
    static boolean softLevel(NodePlan plan, int level) {
        return levels(plan, FenceStep.ISOLATION).get(level).stream().anyMatch(m -> m.kind() == FencingKind.SOFT);
    }

    /**
     * Whether power level {@code level} holds a self-fencing method: its OFF read back is an assumption, so the
     * level's confirmation is {@link Confirmation.Kind#ASSUMED_RESET_AFTER_SAFE_TIME} (the weaker evidence wins).
     */
    static boolean selfLevel(NodePlan plan, int level) {
        return levels(plan, FenceStep.POWER_MANAGEMENT).get(level).stream()
                .anyMatch(m -> m.kind() == FencingKind.SELF);
    }

    /** What an isolation method runs: soft fencing has no OFF and fences by REBOOT; the other kinds run OFF. */
    static FenceAction isolationAction(ResolvedMethod method) {
        return method.kind() == FencingKind.SOFT ? FenceAction.REBOOT : FenceAction.OFF;
    }

    /** The agent type id of {@code op}'s method, or {@value FenceEvent.OperationFinished#CLUSTER}. */
    static String agentType(NodePlan plan, Operation op) {
        if (op instanceof Operation.Agent agent) {
            return method(plan, agent.step(), agent.level(), agent.method()).agentType();
        }
        return FenceEvent.OperationFinished.CLUSTER;
    }

    /**
     * {@code power_management L1 bmc off}. Interned: thousands of records and history entries share a handful of
     * descriptions, and each would otherwise hold its own copy.
     */
    static String describe(NodePlan plan, Operation op) {
        if (op instanceof Operation.Agent agent) {
            return (agent.step().code() + " L" + (agent.level() + 1) + " "
                    + method(plan, agent.step(), agent.level(), agent.method()).name() + " "
                    + agent.action().code()).intern();
        }
        return ("cluster " + ((Operation.Cluster) op).action().code()).intern();
    }
}
