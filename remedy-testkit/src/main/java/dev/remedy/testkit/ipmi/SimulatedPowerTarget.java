package dev.remedy.testkit.ipmi;

import dev.remedy.spi.PowerState;
import dev.remedy.testkit.PowerTarget;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The machine behind a simulated BMC. Chassis Control schedules power steps that take effect after the power
 * change delay (real time on the injected clock); until then both the machine and Get Chassis Status show the
 * old state. The history records each state the machine entered, that is each change. Thread-safe.
 */
final class SimulatedPowerTarget implements PowerTarget {

    private record Step(long atNanos, PowerState state) {
    }

    private final LongSupplier nanoClock;
    private final List<PowerState> history = new ArrayList<>();
    private final ArrayDeque<Step> pending = new ArrayDeque<>();
    private PowerState power;
    private long delayNanos;

    SimulatedPowerTarget(PowerState initial, LongSupplier nanoClock) {
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
    synchronized void delay(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("powerChangeDelay: " + delay + " must not be negative");
        }
        this.delayNanos = delay.toNanos();
    }

    synchronized Duration delay() {
        return Duration.ofNanos(delayNanos);
    }

    /**
     * Commands a sequence of states, each one power change delay after the previous (a power cycle is OFF then
     * ON). Replaces any change still under way.
     */
    synchronized void command(PowerState... steps) {
        settle();
        pending.clear();
        long at = nanoClock.getAsLong();
        for (PowerState step : steps) {
            at += delayNanos;
            pending.add(new Step(at, checked(step)));
        }
        settle();
    }

    private void settle() {
        long now = nanoClock.getAsLong();
        while (!pending.isEmpty() && now - pending.peekFirst().atNanos() >= 0) {
            enter(pending.pollFirst().state());
        }
    }

    private void enter(PowerState state) {
        if (state != power) {
            history.add(state);
            power = state;
        }
    }

    private static PowerState checked(PowerState state) {
        Objects.requireNonNull(state, "state");
        if (state == PowerState.UNKNOWN) {
            throw new IllegalArgumentException("a simulated machine is either ON or OFF, not " + state);
        }
        return state;
    }

    @Override
    public synchronized String toString() {
        settle();
        return "SimulatedPowerTarget[" + power + (pending.isEmpty() ? "" : ", changing") + "]";
    }
}
