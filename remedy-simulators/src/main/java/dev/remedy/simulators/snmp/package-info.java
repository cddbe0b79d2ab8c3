/**
 * SNMP peers for tests and benchmarks of SNMP fence agents (PDU outlets and switch ports).
 *
 * <ul>
 *   <li>{@link dev.remedy.simulators.snmp.SnmpDevice} emulates one device, pure Java: an APC rack PDU (PowerNet
 *       rPDU2 and rPDU tables), an APC MasterSwitch (sPDU table), an Eaton ePDU, a Raritan PX or an IF-MIB switch
 *       ({@link dev.remedy.simulators.snmp.SnmpDeviceKind}, told apart by {@code sysObjectID}), with GET, GETNEXT
 *       and all-or-nothing SET, the SNMP errors a real agent answers, the device's own reboot on an injected
 *       clock, and each outlet as a {@link dev.remedy.test.PowerTarget}.</li>
 *   <li>{@link dev.remedy.simulators.snmp.SnmpStateFile} keeps one device in a file that several processes
 *       share, so that a test observes what a device behind a real SNMP agent did.</li>
 *   <li>{@link dev.remedy.simulators.snmp.SnmpdProcess} runs Debian's {@code snmpd} on a loopback UDP port in
 *       front of one device, through {@code pass_persist} and {@link dev.remedy.simulators.snmp.SnmpPassPersist}:
 *       v1, v2c and v3 (SHA-1/SHA-256, AES-128/AES-256 users), for integration tests against an SNMP agent nobody
 *       on the team wrote.</li>
 * </ul>
 *
 * The emulator is written here from the vendors' MIBs, independently of any SNMP client, so that the agents'
 * profiles and the emulator check each other.
 */
package dev.remedy.simulators.snmp;
