/**
 * Internals of the {@code fence-agents} agent, not API: the agents' metadata and what remedy makes of it, the
 * options written to an agent's standard input, the bounded agent process (its own process group, capped output,
 * a filtered environment) and the mapping of actions and exit codes.
 */
package dev.remedy.fence.clusterlabs.internal;
