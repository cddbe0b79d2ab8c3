package dev.remedy.testkit.redfish;

import dev.remedy.spi.PowerState;
import dev.remedy.testkit.PowerTarget;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The machine (or outlet) behind a simulated Redfish resource. Commands queue power changes that take effect at a
 * given time on the injected clock; until then the machine, and the {@code PowerState} the service reports, keep
 * the old state. A change may enter several states at one instant (a restart enters OFF then ON), so the history
 * shows an Off that no reader of {@code PowerState} could see. Thread-safe.
 */
final class RedfishPowerTarget implements PowerTarget {

    private record Change(long atNanos, List<PowerState> states) {
    }

    private final LongSupplier nanoClock;
    private final List<PowerState> history = new ArrayList<>();
    private final ArrayDeque<Change> pending = new ArrayDeque<>();
    private PowerState power;
    private long delayNanos;

    RedfishPowerTarget(PowerState initial, LongSupplier nanoClock) {
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

    synchronized void delay(Duration delay) {
        Objects.requireNonNull(delay, "powerChangeDelay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("powerChangeDelay " + delay + " must not be negative");
        }
        this.delayNanos = delay.toNanos();
    }

    synchronized Duration delay() {
        return Duration.ofNanos(delayNanos);
    }

    /** The state the machine will be in once every queued change has taken effect. */
    synchronized PowerState planned() {
        settle();
        Change last = pending.peekLast();
        return last == null ? power : last.states().get(last.states().size() - 1);
    }

    /** The clock reading now. */
    long now() {
        return nanoClock.getAsLong();
    }

    /**
     * Queues {@code states}, entered together one power change delay after {@code startNanos} (and never before
     * a change queued earlier). An empty list changes nothing.
     */
    synchronized void command(long startNanos, List<PowerState> states) {
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

    static PowerState checked(PowerState state) {
        Objects.requireNonNull(state, "state");
        if (state == PowerState.UNKNOWN) {
            throw new IllegalArgumentException("a simulated machine or outlet is either ON or OFF, not " + state);
        }
        return state;
    }

    @Override
    public synchronized String toString() {
        settle();
        return "RedfishPowerTarget[" + power + (pending.isEmpty() ? "" : ", changing") + "]";
    }
}
