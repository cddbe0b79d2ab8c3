/**
 * The {@code redfish} fence agent: server power through a DMTF Redfish service, with {@code fence_redfish}'s
 * parameter names, and the {@code redfish-pdu} agent: outlets of a Redfish PDU (the {@code Outlet.PowerControl}
 * action). This package is the module's API: {@link dev.remedy.fence.redfish.RedfishFenceAgentProvider} and
 * {@link dev.remedy.fence.redfish.RedfishPduAgentProvider}, the ServiceLoader entries (or {@code new} one and call
 * {@code create}). The HTTP conversation (sessions, retries, task monitors, TLS trust) lives in
 * {@code dev.remedy.fence.redfish.internal}: not API.
 */
package dev.remedy.fence.redfish;
