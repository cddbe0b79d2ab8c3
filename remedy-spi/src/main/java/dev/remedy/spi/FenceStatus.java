package dev.remedy.spi;

/** How a fence action ended. Only {@link #SUCCEEDED} is a success; a timeout never is. */
public enum FenceStatus {
    /** The action completed and, for power changes, the new state was read back. */
    SUCCEEDED,
    /** The action failed: the device answered with an error, refused the credentials or could not be reached. */
    FAILED,
    /** The deadline passed before the action was confirmed. The power state is unknown. */
    TIMED_OUT,
    /** The agent does not implement this action for this device. */
    UNSUPPORTED,
    /** The agent refused to act, for a reason of safety or configuration (an unknown host key, an ambiguous target). */
    REFUSED;

    /** Whether this status is a success. */
    public boolean isSuccess() {
        return this == SUCCEEDED;
    }
}
