package dev.remedy.simulators.snmp;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One outlet of an emulated PDU (or one port of an emulated switch: ON is up, OFF is down), as the device's MIB
 * reads and switches it and as a test observes it. Commands that take time (a reboot, delayed commands) queue
 * changes on the device's {@link Clock}; they take effect when the clock has passed them, at the next read. The
 * history records every state entered, including one no read could see (an OFF between two reads of a reboot).
 * Thread-safe.
 */
public final class SnmpOutlet implements PowerTarget {

    /**
     * A change queued for later.
     *
     * @param at when it takes effect
     * @param state the state it enters
     */
    public record Change(Instant at, PowerState state) {

        /** Checks that the state is ON or OFF. */
        public Change {
            Objects.requireNonNull(at, "at");
            ScheduledPowerTarget.checked(state);
        }
    }

    private final int number;
    private final String name;
    private final Clock clock;
    private final Duration delay;
    private final List<PowerState> history = new ArrayList<>();
    private final List<Change> pending = new ArrayList<>();
    private PowerState power;

    SnmpOutlet(int number, String name, Clock clock, Duration delay, PowerState initial) {
        this.number = number;
        this.name = name;
        this.clock = clock;
        this.delay = delay;
        this.power = ScheduledPowerTarget.checked(initial);
    }

    /** The outlet's number on its device, from 1. */
    public int number() {
        return number;
    }

    /** The outlet's name, as the device's name column shows it. */
    public String name() {
        return name;
    }

    @Override
    public synchronized PowerState power() {
        settle();
        return power;
    }

    /** Sets the power at once, behind the device's back, cancelling any change under way. */
    @Override
    public synchronized void power(PowerState state) {
        PowerState wanted = ScheduledPowerTarget.checked(state);
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

    /** The changes still to come, earliest first. */
    public synchronized List<Change> pending() {
        settle();
        return List.copyOf(pending);
    }

    /** Whether a reboot is under way: off now with an ON still to come (what some MIBs read as "cycling"). */
    public synchronized boolean rebooting() {
        settle();
        return power == PowerState.OFF && pending.stream().anyMatch(change -> change.state() == PowerState.ON);
    }

    /** Carries out {@code command} as the device does when its control variable is set. */
    public synchronized void command(OutletCommand command) {
        settle();
        Instant now = clock.instant();
        switch (command) {
            case ON -> power(PowerState.ON);
            case OFF -> power(PowerState.OFF);
            case REBOOT -> {
                power(PowerState.OFF);
                pending.add(new Change(now.plus(delay), PowerState.ON));
            }
            case DELAYED_ON -> replacePending(new Change(now.plus(delay), PowerState.ON));
            case DELAYED_OFF -> replacePending(new Change(now.plus(delay), PowerState.OFF));
            case DELAYED_REBOOT -> replacePending(new Change(now.plus(delay), PowerState.OFF),
                    new Change(now.plus(delay.multipliedBy(2)), PowerState.ON));
            case CANCEL -> pending.clear();
        }
    }

    /** Replaces the whole state (power, history, changes to come), as read back from a state file. */
    synchronized void restore(PowerState state, List<PowerState> states, List<Change> changes) {
        power = ScheduledPowerTarget.checked(state);
        history.clear();
        history.addAll(states);
        pending.clear();
        pending.addAll(changes);
        settle();
    }

    private void replacePending(Change... changes) {
        pending.clear();
        pending.addAll(List.of(changes));
    }

    private void settle() {
        Instant now = clock.instant();
        while (!pending.isEmpty() && !pending.get(0).at().isAfter(now)) {
            enter(pending.remove(0).state());
        }
    }

    private void enter(PowerState state) {
        if (state != power) {
            history.add(state);
            power = state;
        }
    }

    @Override
    public synchronized String toString() {
        settle();
        return "SnmpOutlet[" + number + " '" + name + "', " + power + (pending.isEmpty() ? "" : ", changing") + "]";
    }
}
