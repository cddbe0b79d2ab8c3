/**
 * Internal, not API: may change in any release; use {@link dev.remedy.fence.ipmi.IpmiFenceAgentProvider} and
 * {@link dev.remedy.fence.ipmi.IpmiTransport} instead.
 *
 * <p>A non-blocking RMCP+ (IPMI v2.0 lanplus) client: {@link dev.remedy.fence.ipmi.internal.client.IpmiClient}
 * runs a small fixed number of I/O threads, each with one UDP socket and one selector, and serves any number of
 * concurrent {@link dev.remedy.fence.ipmi.internal.client.IpmiSession}s over them. Every call takes a timeout and
 * answers with a {@link java.util.concurrent.CompletableFuture}; failures are
 * {@link dev.remedy.fence.ipmi.internal.client.IpmiException}s that name the BMC and never a secret.
 */
package dev.remedy.fence.ipmi.internal.client;
