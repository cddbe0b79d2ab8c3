/**
 * IPMI peers for tests and benchmarks of IPMI clients (the {@code ipmi} agent, {@code ipmitool}, freeipmi).
 *
 * <ul>
 *   <li>{@link dev.remedy.simulators.ipmi.IpmiSimProcess} runs the real OpenIPMI {@code ipmi_sim} on a loopback UDP
 *       port, with its chassis power kept in files that a {@link dev.remedy.test.PowerTarget} reads and
 *       writes. For integration tests against an implementation nobody on the team wrote.</li>
 *   <li>{@link dev.remedy.simulators.ipmi.IpmiBmcSimulator} serves many simulated BMCs
 *       ({@link dev.remedy.simulators.ipmi.SimulatedBmc}), one UDP port each, from one selector thread: IPMI v2.0
 *       RMCP+ sessions (cipher suites 0–3 and 15–17), chassis status and control, and faults (silence, dropped
 *       datagrams, busy answers, slow power changes). For unit tests that need a real wire and for fleet-sized
 *       benchmarks.</li>
 * </ul>
 *
 * The simulator's server side is written here, from the IPMI v2.0 specification, independently of the client
 * in {@code fence-ipmi}, so that the two check each other.
 */
package dev.remedy.simulators.ipmi;
