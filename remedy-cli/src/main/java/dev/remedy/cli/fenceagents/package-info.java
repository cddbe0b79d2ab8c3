/**
 * remedy's agents as ClusterLabs fence agents that Pacemaker calls: {@link dev.remedy.cli.fenceagents.Launchers}
 * writes one {@code fence_remedy_<type>} script per agent, and {@link dev.remedy.cli.fenceagents.FenceAgentProtocol}
 * is what each script runs: the fence-agents protocol of {@code fencing.py} (options on stdin or as flags, the
 * actions, their output and exit codes, {@code -o metadata}). Internal to the command line.
 */
package dev.remedy.cli.fenceagents;
