package dev.remedy.core.rules;

/**
 * One step of machine remediation; {@link MachineRemediationRules#decide} gives at most one per evaluation. At the end
 * the needs-remediation annotation goes before the reboot annotation, so a crash between the two leaves "reboot
 * annotation without needs-remediation", which a "remove reboot" row of the table cleans up without a second cycle.
 */
public enum MachineRemediationAction {
    /** Add {@link MachineRemediationRules#REBOOT_ANNOTATION} to the host: the host is powered off and held off. */
    ADD_REBOOT_ANNOTATION,
    /** Delete the node object: its workloads are released while the host is verified off. */
    DELETE_NODE,
    /** Remove {@link MachineRemediationRules#NEEDS_REMEDIATION} from the machine: remediation is complete. */
    REMOVE_NEEDS_REMEDIATION_ANNOTATION,
    /** Remove {@link MachineRemediationRules#REBOOT_ANNOTATION} from the host: the host may power on again. */
    REMOVE_REBOOT_ANNOTATION
}
