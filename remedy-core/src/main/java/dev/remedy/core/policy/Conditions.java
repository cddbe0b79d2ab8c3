package dev.remedy.core.policy;

import dev.remedy.core.time.Deadlines;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How a policy's unhealthy conditions read a node: which it shows, since when, and when it becomes unhealthy by
 * their durations. Allocation-free where a pass over many nodes calls it. Stateless.
 */
final class Conditions {

    private Conditions() {
    }

    /** The earliest last-transition of the policy's conditions that {@code node} shows, or null. */
    static Instant earliestShown(Policy policy, NodeStatus node) {
        Instant earliest = null;
        for (UnhealthyCondition condition : policy.conditions()) {
            NodeCondition shown = node.find(condition.type());
            if (shown != null && shown.status().equals(condition.status())) {
                earliest = min(earliest, shown.lastTransition());
            }
        }
        return earliest;
    }

    /** When {@code node} becomes unhealthy by the first of its shown conditions to last its duration, or null. */
    static Instant nextUnhealthy(Policy policy, NodeStatus node) {
        Instant next = null;
        for (UnhealthyCondition condition : policy.conditions()) {
            NodeCondition shown = node.find(condition.type());
            if (shown != null && shown.status().equals(condition.status())) {
                next = min(next, Deadlines.plus(shown.lastTransition(), condition.duration()));
            }
        }
        return next;
    }

    static Duration longestDuration(Policy policy) {
        Duration longest = Duration.ZERO;
        for (UnhealthyCondition condition : policy.conditions()) {
            if (condition.duration().compareTo(longest) > 0) {
                longest = condition.duration();
            }
        }
        return longest;
    }

    /** For each condition, the time before which it must have started to count at {@code now}. */
    static Instant[] thresholds(Policy policy, Instant now) {
        List<UnhealthyCondition> conditions = policy.conditions();
        Instant[] thresholds = new Instant[conditions.size()];
        for (int i = 0; i < thresholds.length; i++) {
            thresholds[i] = Deadlines.minus(now, conditions.get(i).duration());
        }
        return thresholds;
    }

    /** Whether {@code node} has shown one of the conditions for its whole duration (per {@link #thresholds}). */
    static boolean unhealthyAt(Policy policy, Instant[] thresholds, NodeStatus node) {
        List<UnhealthyCondition> conditions = policy.conditions();
        for (int i = 0; i < thresholds.length; i++) {
            if (conditions.get(i).heldSince(node, thresholds[i])) {
                return true;
            }
        }
        return false;
    }

    static boolean showsAny(Policy policy, NodeStatus node) {
        for (UnhealthyCondition condition : policy.conditions()) {
            if (condition.shownBy(node)) {
                return true;
            }
        }
        return false;
    }

    /** {@code Ready=False for at least PT5M, …}: the conditions {@code node} shows. */
    static String describe(Policy policy, NodeStatus node) {
        List<String> shown = new ArrayList<>();
        for (UnhealthyCondition c : policy.conditions()) {
            if (c.shownBy(node)) {
                shown.add(c.type() + "=" + c.status() + " for at least " + c.duration());
            }
        }
        return String.join(", ", shown);
    }

    static Instant min(Instant a, Instant b) {
        return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
    }
}
