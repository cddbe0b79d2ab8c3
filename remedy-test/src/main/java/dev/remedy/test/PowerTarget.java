package dev.remedy.test;

import dev.remedy.spi.PowerState;
import java.util.List;

/**
 * A machine (or outlet, or port) as a test sees it behind the agent's back: the conformance kit sets its power
 * before a test and reads its power and its history afterwards. Implemented by
 * {@link dev.remedy.test.fake.FakePowerTarget} and, in agent modules, by adapters over simulators and real
 * peers (an {@code ipmi_sim} state file, for example).
 */
public interface PowerTarget {

    /** The power state now, read directly. */
    PowerState power();

    /** Sets the power state directly, without going through an agent. */
    void power(PowerState state);

    /** Every power state the target entered, in order, since the last {@link #clearHistory()}. */
    List<PowerState> history();

    /** Forgets the history. */
    void clearHistory();
}
