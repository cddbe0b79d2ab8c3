package dev.remedy.fence.snmp.internal.profile;

import java.util.Set;

/**
 * How a plug's state is read: the OID, and the integer values that mean on, off, and on the way (a command the
 * device has not finished, such as Eaton's pendingOff). Any other value is not a state: the agent fails rather than
 * guess.
 *
 * @param oid     the OID to GET
 * @param on      the values that mean on (powered, or a port enabled)
 * @param off     the values that mean off
 * @param pending the values that mean a change is under way; empty if the device has none
 */
public record StateRead(Oid oid, Set<Integer> on, Set<Integer> off, Set<Integer> pending) {

    /** Copies the sets; they must not share a value. */
    public StateRead {
        on = Set.copyOf(on);
        off = Set.copyOf(off);
        pending = Set.copyOf(pending);
        if (on.isEmpty() || off.isEmpty()) {
            throw new IllegalArgumentException("a state read needs on and off values");
        }
    }
}
