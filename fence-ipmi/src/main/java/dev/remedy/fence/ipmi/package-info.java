/**
 * The {@code ipmi} fence agent: server power through the BMC over IPMI v2.0 (RMCP+, lanplus), with
 * {@code fence_ipmilan}'s parameter names. {@link dev.remedy.fence.ipmi.IpmiFenceAgentProvider} is the
 * ServiceLoader entry; the agent runs every action as futures on the shared
 * {@link dev.remedy.fence.ipmi.client.IpmiClient}, confirms every power change by reading it back, and closes
 * every session it opens. The wire format is in {@code protocol}, the non-blocking client in {@code client}.
 */
package dev.remedy.fence.ipmi;
