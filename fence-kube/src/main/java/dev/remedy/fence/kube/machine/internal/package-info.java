/** Internals of the machine-remediation driver and the escalate remediator: object access and status codecs. */
package dev.remedy.fence.kube.machine.internal;
