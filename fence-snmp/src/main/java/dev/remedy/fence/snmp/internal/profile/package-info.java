/**
 * Internal, not API: may change in any release; write profiles as YAML and give them to the agents of
 * {@link dev.remedy.fence.snmp} in the {@code profile_file} parameter instead.
 *
 * <p>SNMP device profiles as data: the OIDs and values that read, switch on, switch off and (where the device has
 * one) reboot an outlet or a port, the form of a plug and the columns that name them, read from YAML shipped in the
 * jar or given by the user.
 */
package dev.remedy.fence.snmp.internal.profile;
