/**
 * A launcher of a real peer for the fence-agents bridge: Pacemaker's own fencer, {@code pacemaker-fenced}, on a
 * one-node corosync ring of 127.0.0.1 ({@link dev.remedy.simulators.pacemaker.PacemakerFencer}), driven through
 * {@code stonith_admin}: devices ({@link dev.remedy.simulators.pacemaker.FenceDevice}) and levels registered,
 * nodes fenced, the fencer's history ({@link dev.remedy.simulators.pacemaker.FenceEvent}) and the agent runs its
 * log records ({@link dev.remedy.simulators.pacemaker.AgentRun}) read back.
 */
package dev.remedy.simulators.pacemaker;
