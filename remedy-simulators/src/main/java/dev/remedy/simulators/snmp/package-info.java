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
 * </ul>
 *
 * The emulator is written here from the vendors' MIBs, independently of any SNMP client, so that the agents'
 * profiles and the emulator check each other.
 */
package dev.remedy.simulators.snmp;
