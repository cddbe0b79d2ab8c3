package dev.remedy.spi;

import java.util.Locale;

/**
 * What an agent's fencing does to the target, and so what its answers prove. Declared by
 * {@link FenceAgentProvider#fencingKind()}; the engine decides with it where a method may stand in a topology and
 * which action it runs.
 *
 * <p>{@link #code()} is the stable form used in messages and on the command line; never rely on
 * {@link #ordinal()}.
 */
public enum FencingKind {
    /**
     * Power fencing (BMC, PDU outlet): OFF stops the machine, ON powers it, REBOOT is OFF read back, then ON.
     * STATUS reading OFF is evidence that the machine is stopped.
     */
    POWER,
    /**
     * Fabric fencing (network switch port, SAN zone, storage reservation): OFF isolates the node from the fabric,
     * ON un-fences it; the machine keeps running, so REBOOT is meaningless. STATUS reading OFF proves the node is
     * cut off from that fabric, never that the machine is stopped.
     */
    FABRIC,
    /**
     * Soft fencing: asks the node's own operating system to act (restart the node agent, reboot through sysrq).
     * Only REBOOT changes anything; OFF and ON are unsupported. A success proves the request was delivered, never
     * that the machine is off.
     */
    SOFT,
    /**
     * Self fencing: the node resets itself (a node agent that stops feeding its watchdog, as in self-node
     * remediation). OFF asks for the reset; STATUS reads OFF only once the node must have reset, a safe time after it
     * was last seen healthy: an assumption from the node's own timings, never a reading of its power, so the engine
     * records it as such. ON withdraws the request; the node boots by itself. REBOOT is meaningless.
     */
    SELF;

    /** The stable lower-case name: {@code power}, {@code fabric}, {@code soft} or {@code self}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
