package dev.remedy.fence.snmp.internal.profile;

/**
 * The device's own reboot of an outlet: the SET that starts it, and the OID that holds how many seconds the outlet
 * stays off.
 *
 * @param write the SET that reboots the outlet
 * @param delay the OID of the off time, in seconds
 */
public record DeviceReboot(Write write, Oid delay) {
}
