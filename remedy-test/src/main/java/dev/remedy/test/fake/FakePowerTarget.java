package dev.remedy.test.fake;

import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An in-memory machine with a power switch that takes {@link #transitionTime(Duration)} to act, measured on a
 * {@link TimeSource}. It can be made unreachable or given a password. Thread-safe.
 */
public final class FakePowerTarget implements PowerTarget {

    /** How long a power change takes unless told otherwise. */
    public static final Duration DEFAULT_TRANSITION_TIME = Duration.ofSeconds(2);

    private final String name;
    private final TimeSource time;
    private final List<PowerState> history = new ArrayList<>();
    private PowerState power = PowerState.ON;
    private PowerState pending;
    private long pendingAtNanos;
    private Duration transitionTime = DEFAULT_TRANSITION_TIME;
    private boolean reachable = true;
    private Secret password;

    /** A reachable target named {@code name}, powered on, that accepts any password. */
    public FakePowerTarget(String name, TimeSource time) {
        this.name = Objects.requireNonNull(name, "name");
        this.time = Objects.requireNonNull(time, "time");
    }

    /** The target's name (the fake agent's {@code plug}). */
    public String name() {
        return name;
    }

    /** The clock the target's transitions are measured on. */
    public TimeSource time() {
        return time;
    }

    @Override
    public synchronized PowerState power() {
        settle();
        return power;
    }

    @Override
    public synchronized void power(PowerState state) {
        if (state == PowerState.UNKNOWN) {
            throw new IllegalArgumentException("a fake target is either ON or OFF");
        }
        pending = null;
        enter(state);
    }

    @Override
    public synchronized List<PowerState> history() {
        settle();
        return List.copyOf(history);
    }

    @Override
    public synchronized void clearHistory() {
        settle();
        history.clear();
    }

    /** Asks the switch for {@code wanted}; the state changes after the transition time. As a device would do it. */
    public synchronized void command(PowerState wanted) {
        settle();
        if (wanted == power) {
            pending = null;
            return;
        }
        pending = wanted;
        pendingAtNanos = time.nanoTime() + transitionTime.toNanos();
        settle();
    }

    /** Whether a change asked by {@link #command} is still under way. */
    public synchronized Optional<PowerState> pending() {
        settle();
        return Optional.ofNullable(pending);
    }

    /** Sets how long a power change takes. */
    public synchronized FakePowerTarget transitionTime(Duration duration) {
        this.transitionTime = Objects.requireNonNull(duration, "duration");
        return this;
    }

    /** Whether the target answers at all. */
    public synchronized boolean reachable() {
        return reachable;
    }

    /** Makes the target answer, or never answer. */
    public synchronized FakePowerTarget reachable(boolean answers) {
        this.reachable = answers;
        return this;
    }

    /** Makes the target accept only {@code expected}. */
    public synchronized FakePowerTarget password(Secret expected) {
        this.password = expected;
        return this;
    }

    /** Whether {@code offered} would be accepted. */
    public synchronized boolean accepts(Secret offered) {
        return password == null || password.matches(offered);
    }

    private void settle() {
        if (pending != null && time.nanoTime() - pendingAtNanos >= 0) {
            PowerState reached = pending;
            pending = null;
            enter(reached);
        }
    }

    private void enter(PowerState state) {
        if (state != power || history.isEmpty()) {
            history.add(state);
        }
        power = state;
    }

    @Override
    public synchronized String toString() {
        return "FakePowerTarget[" + name + ", " + power + (reachable ? "" : ", unreachable") + "]";
    }
}
