package dev.remedy.simulation;

import java.util.Locale;

/**
 * What can go wrong with a simulated node. A fault lasts until the scenario clears it, except {@link #HANG}, which a
 * power cycle also ends.
 */
public enum Fault {
    /** A kernel hang: {@code Ready=Unknown} until the node is power-cycled, then Ready after its boot time. */
    HANG,
    /**
     * A network partition: {@code Ready=Unknown} while the fault lasts; power cycling does not help. A failed rack
     * switch is this fault on every node of the rack.
     */
    NETWORK,
    /** A dead machine: {@code Ready=Unknown} for good; it never boots again. */
    DEAD,
    /**
     * A reboot loop: the node alternates between {@code Ready=Unknown} and {@code Ready=False} every flap period
     * (see {@link Scenario#flapPeriod()}); power cycling does not help.
     */
    FLAP;

    /** The name used in scenario files: {@code hang}, {@code network}, {@code dead}, {@code flap}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
