/**
 * The machine annotation protocols on real objects: {@link dev.remedy.fence.kube.machine.MachineRemediationDriver}
 * (metal3's power-cycle-and-delete design) and {@link dev.remedy.fence.kube.machine.EscalateRemediator} (the
 * {@code escalate} strategy on a remediation object of any kind).
 */
package dev.remedy.fence.kube.machine;
