/**
 * remedy driving other remediators: {@link dev.remedy.fence.kube.external.KubeExternalRemediations} instantiates
 * external remediation templates as NodeHealthCheck and MachineHealthCheck do, follows their {@code Succeeded}
 * condition, cancels them (with NodeHealthCheck's timed-out annotation on a timeout), and runs the Node remedy
 * design's remedy pods as Jobs that a restarted operator re-attaches to.
 */
package dev.remedy.fence.kube.external;
