package dev.remedy.core.rules;

/** An effect of an {@code escalate} remediation step; every one is idempotent and may be repeated. */
public enum RemediationAction {
    /** Put the remediation's keyed, hard reboot request on the host: power off and hold off. */
    ADD_REBOOT_ANNOTATION,
    /** Remove the remediation's reboot request from the host: the host may power on. */
    REMOVE_REBOOT_ANNOTATION,
    /** Delete the machine (and with it the node) so that it is replaced. */
    DELETE_MACHINE
}
