package dev.remedy.simulators.snmp;

/**
 * What a control variable asks of an outlet or port, whatever the MIB's number for it. Delays are the device's
 * {@link SnmpDeviceSpec#rebootDelay()}.
 */
public enum OutletCommand {
    /** On now; cancels any change under way. */
    ON,
    /** Off now; cancels any change under way. */
    OFF,
    /** Off now, on again one reboot delay later (an outlet that is off just comes on after the delay). */
    REBOOT,
    /** On after one delay. */
    DELAYED_ON,
    /** Off after one delay. */
    DELAYED_OFF,
    /** Off after one delay, on one delay after that. */
    DELAYED_REBOOT,
    /** Cancels the change under way; the outlet stays as it is. */
    CANCEL
}
