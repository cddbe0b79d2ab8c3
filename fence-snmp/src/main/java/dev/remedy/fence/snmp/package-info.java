/**
 * Fencing over SNMP: the {@code snmp} (PDU outlets) and {@code snmp-fabric} (switch ports) agents, on snmp4j, SNMP
 * v1, v2c and v3 (authNoPriv and authPriv; SHA-1 and SHA-2 authentication, AES-128/192/256 privacy), with the option
 * names of the ClusterLabs SNMP agents ({@code community}, {@code snmp_version}, {@code snmp_sec_level},
 * {@code snmp_auth_prot}, {@code snmp_priv_prot}, {@code snmp_priv_passwd}, {@code username}, {@code password},
 * {@code plug}); communities and passphrases are secrets. This package is the module's API:
 * {@link dev.remedy.fence.snmp.SnmpFenceAgentProvider} and {@link dev.remedy.fence.snmp.SnmpFabricAgentProvider}, the
 * ServiceLoader entries (or {@code new} one and call {@code create}), and {@link dev.remedy.fence.snmp.SnmpProfiles}.
 *
 * <p>The agents are driven by device profiles that are data: the built-in ones ({@code apc}, which uses the rPDU2
 * tables or the older sPDU MasterSwitch table, whichever the device answers, {@code apc-rpdu2} and {@code apc-spdu} to
 * force one; {@code eaton} likewise over {@code eaton-epdu} and {@code eaton-managed}; {@code raritan} over {@code
 * raritan-px2} and {@code raritan-px}; and {@code if-mib} for switch ports), chosen with the {@code profile} parameter,
 * and YAML files of your own given in {@code profile_file}. That YAML format is part of the API: a {@code profiles}
 * list; each entry either a table, with {@code name}, {@code description}, {@code kind} ({@code power} or {@code
 * fabric}), {@code plug} (the form of a plug given by number, a regex in full, whose named groups {@code index} may
 * use), {@code index} (how a plug becomes its OID index, {@code {plug}} by default, {@code {unit|0}.{outlet}} with a
 * group's default, or {@code {plug-1}} for a device that counts rows from 0), {@code names} (columns whose values name
 * plugs, searched in order for a plug given by name), {@code status} ({@code {oid, on, off, pending}}: the OID with
 * {@code {index}}, and the integer values that mean on, off and a change under way), {@code on} and {@code off} ({@code
 * {oid, value}}: the SET of an integer), {@code reboot} ({@code {oid, value, delay}}: the device's own outlet reboot
 * and the OID of its off time in seconds) and, for fabric profiles, {@code isolationPersists} (whether a port set down
 * stays down after the switch restarts; required); or a choice, {@code {name, description, kind, choose: [table,
 * table...]}}, which uses the first table whose status OID of the node's first plug the device answers with a value. A
 * plug is checked against the profile before anything is sent: it is of the profile's form, or a printable name without
 * commas for a profile with name columns; a name is only compared with what the device answers, never sent. The Java
 * types that read and hold profiles, and the SNMP sessions, live in {@code dev.remedy.fence.snmp.internal}: not API.
 *
 * <p>snmp4j's own logging is off unless the application turns it on; an application that does should know that
 * snmp4j's debug lines may show v1/v2c messages, whose community is in clear text.
 */
package dev.remedy.fence.snmp;
