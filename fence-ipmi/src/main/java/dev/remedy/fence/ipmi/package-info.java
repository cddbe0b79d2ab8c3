/**
 * The {@code ipmi} fence agent: server power through the BMC over IPMI v2.0 (RMCP+, lanplus), with
 * {@code fence_ipmilan}'s parameter names. This package is the module's API:
 * {@link dev.remedy.fence.ipmi.IpmiFenceAgentProvider}, the ServiceLoader entry (or {@code new} it and call
 * {@code create}), and {@link dev.remedy.fence.ipmi.IpmiTransport}, the UDP I/O its agents share, for callers who
 * choose the I/O threads and when they stop. The agent runs every action as futures on that transport, confirms
 * every power change by reading it back, and closes every session it opens. The RMCP+ wire format and the
 * non-blocking client live in {@code dev.remedy.fence.ipmi.internal}: not API.
 */
package dev.remedy.fence.ipmi;
