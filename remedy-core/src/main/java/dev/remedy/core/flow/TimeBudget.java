package dev.remedy.core.flow;

import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.time.Deadlines;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How the flow shares time: the budget of each operation within its step's deadline, whether a retry still has
 * enough of the step left, backoff and when an operation counts as lost. Pure functions of
 * the settings; thread-safe.
 */
final class TimeBudget {

    private final FlowSettings settings;

    TimeBudget(FlowSettings settings) {
        this.settings = settings;
    }

    /** What is left until {@code deadline}, never negative. */
    static Duration left(Instant now, Instant deadline) {
        return nonNegative(Duration.between(now, deadline));
    }

    /**
     * The budget of the agent operation at ({@code level}, {@code method}): what is left of the step shared evenly
     * among the levels and methods still to run, at least the minimum operation budget and at most what is left;
     * empty when less than the minimum is left.
     */
    Optional<Duration> operation(StepPlan plan, Instant now, Instant deadline, int level, int method) {
        Duration left = left(now, deadline);
        if (left.compareTo(settings.minOperationBudget()) < 0) {
            return Optional.empty();
        }
        int levelsLeft = Math.max(1, plan.levels().size() - level);
        int methodsLeft = Math.max(1, plan.levels().get(level).size() - method);
        Duration share = left.dividedBy(levelsLeft).dividedBy(methodsLeft);
        Duration budget = share.compareTo(settings.minOperationBudget()) < 0 ? settings.minOperationBudget() : share;
        return Optional.of(budget.compareTo(left) > 0 ? left : budget);
    }

    /** Whether enough of the step is left for a retry ({@link FlowSettings#minRetryShare()} of its timeout). */
    boolean retryFits(StepPlan plan, Instant now, Instant deadline) {
        return Deadlines.millis(left(now, deadline)) >= (long) (Deadlines.millis(plan.timeout()) * settings.minRetryShare());
    }

    /**
     * Whether STATUS has been polled for longer than the current power level's share of the step, so that the
     * next level should be tried; never for the last level, which keeps polling until the deadline.
     */
    static boolean levelShareUsed(StepPlan plan, NodeFence r, Instant now) {
        int levelsLeft = plan.levels().size() - r.level();
        Duration waited = left(r.stageSince(), now);
        Duration levelShare = left(r.stageSince(), r.stepDeadline()).dividedBy(levelsLeft);
        return levelsLeft > 1 && waited.compareTo(levelShare) >= 0;
    }

    /** The wait before trying again after failing for {@code failing}: half of it, within the backoff bounds. */
    Duration backoff(Duration failing) {
        Duration half = failing.dividedBy(2);
        return half.compareTo(settings.backoffInitial()) < 0 ? settings.backoffInitial()
                : half.compareTo(settings.backoffMax()) > 0 ? settings.backoffMax() : half;
    }

    /** When {@code op} counts as lost (timed out) if no result came: its budget and the grace after it. */
    Instant lostAt(Operation op) {
        return Deadlines.plus(Deadlines.plus(op.issuedAt(), op.budget()), settings.operationGrace());
    }

    static Duration nonNegative(Duration value) {
        return value.isNegative() ? Duration.ZERO : value;
    }
}
