package dev.remedy.core.rules;

/**
 * What an {@code escalate} remediation sees on one evaluation.
 *
 * @param poweredOn      whether the host reports power on
 * @param nodePresent    whether the machine's node object exists
 * @param nodeReady      whether the node is Ready; requires {@code nodePresent}
 * @param timedOutMarker whether the remediation object carries {@link EscalateRemediation#TIMED_OUT_ANNOTATION}
 */
public record RemediationObservation(boolean poweredOn, boolean nodePresent, boolean nodeReady,
        boolean timedOutMarker) {

    /** Validates the fields. */
    public RemediationObservation {
        if (nodeReady && !nodePresent) {
            throw new IllegalArgumentException("nodeReady: a node that is not present cannot be ready");
        }
    }
}
