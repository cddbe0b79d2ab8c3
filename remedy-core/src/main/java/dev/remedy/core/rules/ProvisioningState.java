package dev.remedy.core.rules;

/** The provisioning state of a bare-metal host, as far as the reboot-request rules care. */
public enum ProvisioningState {
    /** Not managed. */
    UNMANAGED,
    /** Credentials are being checked. */
    REGISTERING,
    /** Hardware is being inspected. */
    INSPECTING,
    /** Ready to be provisioned. */
    AVAILABLE,
    /** An image is being written. */
    PROVISIONING,
    /** Provisioned: reboot requests apply. */
    PROVISIONED,
    /** Provisioned by someone else and adopted: reboot requests apply. */
    EXTERNALLY_PROVISIONED,
    /** Being deprovisioned: every reboot request is cleared. */
    DEPROVISIONING,
    /** Being deleted: every reboot request is cleared. */
    DELETING;

    /**
     * Whether reboot requests are acted on in this state.
     *
     * @return true for {@link #PROVISIONED} and {@link #EXTERNALLY_PROVISIONED}
     */
    public boolean acceptsRebootRequests() {
        return this == PROVISIONED || this == EXTERNALLY_PROVISIONED;
    }

    /**
     * Whether every reboot request is removed in this state.
     *
     * @return true for {@link #DEPROVISIONING} and {@link #DELETING}
     */
    public boolean clearsRebootRequests() {
        return this == DEPROVISIONING || this == DELETING;
    }
}
