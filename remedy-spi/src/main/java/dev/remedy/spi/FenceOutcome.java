package dev.remedy.spi;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of one fence action, as a value. Agents translate transport errors into outcomes and keep the
 * cause; they never throw for a device that fails, times out or refuses.
 *
 * @param status   how the action ended
 * @param power    the power state read last, {@link PowerState#UNKNOWN} when not known
 * @param detail   one human sentence: what happened, on which device, and what to do if it failed; never a secret
 * @param cause    the underlying error, if any (its message must not contain a secret either)
 * @param attempts how many times the agent sent the command or request (at least 1 once anything was sent)
 * @param elapsed  time spent in the action
 * @param plugs    the plugs reported by {@link FenceAction#LIST}; empty for other actions
 */
public record FenceOutcome(FenceStatus status, PowerState power, String detail, Optional<Throwable> cause,
                           int attempts, Duration elapsed, List<Plug> plugs) {

    /** Validates the fields and copies the plug list. */
    public FenceOutcome {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(power, "power");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(elapsed, "elapsed");
        if (attempts < 0) {
            throw new IllegalArgumentException("attempts must be >= 0, was " + attempts);
        }
        if (elapsed.isNegative()) {
            throw new IllegalArgumentException("elapsed must not be negative, was " + elapsed);
        }
        plugs = List.copyOf(plugs);
    }

    /** A success that read {@code power} at the end. */
    public static FenceOutcome succeeded(PowerState power, String detail) {
        return of(FenceStatus.SUCCEEDED, power, detail);
    }

    /** A failure; the power state is whatever was read last. */
    public static FenceOutcome failed(PowerState power, String detail) {
        return of(FenceStatus.FAILED, power, detail);
    }

    /** A timeout: the power state is not known to have changed. */
    public static FenceOutcome timedOut(String detail) {
        return of(FenceStatus.TIMED_OUT, PowerState.UNKNOWN, detail);
    }

    /** A refusal made before anything was changed. */
    public static FenceOutcome refused(String detail) {
        return of(FenceStatus.REFUSED, PowerState.UNKNOWN, detail);
    }

    /** The agent does not implement {@code action}. */
    public static FenceOutcome unsupported(String agentType, FenceAction action) {
        return of(FenceStatus.UNSUPPORTED, PowerState.UNKNOWN,
                "agent '" + agentType + "' does not support action '" + action.code() + "'");
    }

    /** An outcome with no cause, no attempts, no elapsed time and no plugs; use the {@code with*} methods to add them. */
    public static FenceOutcome of(FenceStatus status, PowerState power, String detail) {
        return new FenceOutcome(status, power, detail, Optional.empty(), 0, Duration.ZERO, List.of());
    }

    /** This outcome with a cause. */
    public FenceOutcome withCause(Throwable error) {
        return new FenceOutcome(status, power, detail, Optional.of(error), attempts, elapsed, plugs);
    }

    /** This outcome with an attempt count. */
    public FenceOutcome withAttempts(int count) {
        return new FenceOutcome(status, power, detail, cause, count, elapsed, plugs);
    }

    /** This outcome with the time the action took. */
    public FenceOutcome withElapsed(Duration time) {
        return new FenceOutcome(status, power, detail, cause, attempts, time, plugs);
    }

    /** This outcome with a plug listing. */
    public FenceOutcome withPlugs(List<Plug> list) {
        return new FenceOutcome(status, power, detail, cause, attempts, elapsed, list);
    }

    /** Whether the action succeeded. */
    public boolean isSuccess() {
        return status.isSuccess();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder()
                .append(status).append(" power=").append(power)
                .append(" attempts=").append(attempts)
                .append(" elapsed=").append(elapsed.toMillis()).append("ms: ").append(detail);
        cause.ifPresent(c -> text.append(" (cause: ").append(c).append(')'));
        if (!plugs.isEmpty()) {
            text.append(" plugs=").append(plugs.size());
        }
        return text.toString();
    }
}
