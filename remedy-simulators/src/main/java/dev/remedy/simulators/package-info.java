/**
 * What agent tests run against besides the fake agent: {@link dev.remedy.simulators.ScheduledPowerTarget}, the
 * machine behind a simulated BMC, Redfish resource or PDU outlet; {@link dev.remedy.simulators.PeerCommand}, one
 * bounded run of a peer's command line ({@code ipmitool}, {@code fence_redfish}…); and
 * {@link dev.remedy.simulators.PeerPrograms}, which skips an integration test whose peer is not installed (and fails
 * it in CI). Sub-packages hold the device simulators ({@code ipmi}, {@code redfish}, {@code ssh}) and the launchers
 * of real peers ({@code ipmi}: OpenIPMI's {@code ipmi_sim}; {@code openssh}: Debian's OpenSSH server;
 * {@code pacemaker}: Pacemaker's fencer, {@code pacemaker-fenced}, on a one-node corosync ring).
 */
package dev.remedy.simulators;
