package dev.remedy.simulators;

import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The machine (or outlet) behind a simulated BMC or Redfish resource. Commands queue power changes that take
 * effect after the power change delay on the injected clock; until then the machine, and what the simulated
 * service reports, keep the old state. A change may enter several states at one instant (a restart enters OFF then
 * ON), so the history can show an OFF that no status read could see. The history records each state entered, that
 * is each change. Thread-safe.
 */
public final class ScheduledPowerTarget implements PowerTarget {

    private record Change(long atNanos, List<PowerState> states) {
    }

    private final LongSupplier nanoClock;
    private final List<PowerState> history = new ArrayList<>();
    private final ArrayDeque<Change> pending = new ArrayDeque<>();
    private PowerState power;
    private long delayNanos;

    /**
     * @param initial ON or OFF
     * @param nanoClock the clock changes are scheduled on ({@link System#nanoTime()}, or a test's fake)
     */
    public ScheduledPowerTarget(PowerState initial, LongSupplier nanoClock) {
        this.power = checked(initial);
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    @Override
    public synchronized PowerState power() {
        settle();
        return power;
    }

    /** Sets the power at once, cancelling any change under way; records the state if it changed. */
    @Override
    public synchronized void power(PowerState state) {
        PowerState wanted = checked(state);
        pending.clear();
        enter(wanted);
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

    /** How long a commanded change takes from now on. */
    public synchronized void delay(Duration delay) {
        Objects.requireNonNull(delay, "powerChangeDelay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("powerChangeDelay " + delay + " must not be negative");
        }
        this.delayNanos = delay.toNanos();
    }

    /** The power change delay. */
    public synchronized Duration delay() {
        return Duration.ofNanos(delayNanos);
    }

    /** The state the machine will be in once every queued change has taken effect. */
    public synchronized PowerState planned() {
        settle();
        Change last = pending.peekLast();
        return last == null ? power : last.states().get(last.states().size() - 1);
    }

    /** The clock reading now. */
    public long now() {
        return nanoClock.getAsLong();
    }

    /**
     * Queues {@code states}, entered together one power change delay after {@code startNanos} (and never before
     * a change queued earlier). An empty list changes nothing.
     */
    public synchronized void command(long startNanos, List<PowerState> states) {
        settle();
        if (states.isEmpty()) {
            return;
        }
        long at = startNanos + delayNanos;
        Change last = pending.peekLast();
        if (last != null && at - last.atNanos() < 0) {
            at = last.atNanos();
        }
        pending.add(new Change(at, List.copyOf(states)));
        settle();
    }

    /**
     * Replaces any change under way with {@code steps}, each entered one power change delay after the previous
     * (a power cycle is OFF, then ON one delay later).
     */
    public synchronized void commandSteps(PowerState... steps) {
        settle();
        pending.clear();
        long at = nanoClock.getAsLong();
        for (PowerState step : steps) {
            at += delayNanos;
            pending.add(new Change(at, List.of(checked(step))));
        }
        settle();
    }

    private void settle() {
        long now = nanoClock.getAsLong();
        while (!pending.isEmpty() && now - pending.peekFirst().atNanos() >= 0) {
            pending.pollFirst().states().forEach(this::enter);
        }
    }

    private void enter(PowerState state) {
        if (state != power) {
            history.add(state);
            power = state;
        }
    }

    /**
     * {@code state} if it is ON or OFF.
     *
     * @throws IllegalArgumentException for UNKNOWN
     */
    public static PowerState checked(PowerState state) {
        Objects.requireNonNull(state, "state");
        if (state == PowerState.UNKNOWN) {
            throw new IllegalArgumentException("a simulated machine or outlet is either ON or OFF, not " + state);
        }
        return state;
    }

    @Override
    public synchronized String toString() {
        settle();
        return "ScheduledPowerTarget[" + power + (pending.isEmpty() ? "" : ", changing") + "]";
    }
}
