/**
 * The {@code redfish} fence agent: server power through a DMTF Redfish service, with {@code fence_redfish}'s
 * parameter names. {@link dev.remedy.fence.redfish.RedfishFenceAgentProvider} is the ServiceLoader entry; the
 * HTTP conversation (sessions, retries, task monitors, TLS trust) is in {@code client}.
 */
package dev.remedy.fence.redfish;
