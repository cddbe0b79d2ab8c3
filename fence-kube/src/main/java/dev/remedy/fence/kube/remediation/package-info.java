/**
 * remedy as a remediator driven by the health checkers people already run: medik8s NodeHealthCheck and Cluster API
 * MachineHealthCheck. The namespaced {@code NodeFenceRemediation} and {@code NodeFenceRemediationTemplate} custom
 * resources ({@code remedy.dev/v1alpha1}) take what FenceAgentsRemediation users write, so a FenceAgentsRemediation
 * migrates by changing {@code apiVersion} and {@code kind}; {@link dev.remedy.fence.kube.remediation.RemediationController}
 * fences the node of each one through the engine, behind storm protection, and reports with FenceAgentsRemediation's
 * conditions and reasons (and, for a Machine's remediation, the Machine's conditions).
 */
package dev.remedy.fence.kube.remediation;
