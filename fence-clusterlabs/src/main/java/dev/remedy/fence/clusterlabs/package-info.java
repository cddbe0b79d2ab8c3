/**
 * The {@code fence-agents} agent: any ClusterLabs fence agent ({@code fence_*} of the fence-agents package) run as
 * a remedy agent, its parameters read from its metadata. This package is the module's API:
 * {@link dev.remedy.fence.clusterlabs.ClusterLabsFenceAgentProvider}, the ServiceLoader entry (or {@code new} one,
 * {@code specialise} it to an agent and call {@code create}). Reading metadata and running the agents' processes
 * live in {@code dev.remedy.fence.clusterlabs.internal}: not API.
 */
package dev.remedy.fence.clusterlabs;
