/**
 * The contract between the self-node-remediation node agents (module {@code remedy-node-agent}) and the operator
 * that releases the workloads of the nodes they reset: one settings type both sides read
 * ({@link dev.remedy.core.nodeagent.NodeAgentSettings}, from the ConfigMap or a file, by
 * {@link dev.remedy.core.nodeagent.NodeAgentSettingsReader}), and the names of the agents' report, a Lease per node
 * annotated with how the agent can reset its node ({@link dev.remedy.core.nodeagent.NodeAgentContract},
 * {@link dev.remedy.core.nodeagent.WatchdogMode}), read back by the operator with
 * {@link dev.remedy.core.nodeagent.NodeAgentReport}. The decision rules both sides apply are in
 * {@link dev.remedy.core.rules}: {@link dev.remedy.core.rules.PeerSelection},
 * {@link dev.remedy.core.rules.PeerVerdict}, {@link dev.remedy.core.rules.FailureDomainRule} and
 * {@link dev.remedy.core.rules.SafeTimeSettings}.
 */
package dev.remedy.core.nodeagent;
