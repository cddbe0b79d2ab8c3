package dev.remedy.core.rules;

import java.time.Instant;
import java.util.Objects;

/**
 * One status condition of a remediation (Kubernetes convention: the transition time changes only with the status).
 *
 * @param type               {@link #PROCESSING}, {@link #SUCCEEDED} or {@link #PERMANENT_NODE_DELETION_EXPECTED}
 * @param status             the condition's status
 * @param reason             a CamelCase reason
 * @param message            a sentence for people
 * @param lastTransitionTime when the status last changed
 */
public record RemediationCondition(String type, Status status, String reason, String message,
        Instant lastTransitionTime) {

    /** True while the remediation is working on the host. */
    public static final String PROCESSING = "Processing";
    /** True once the remediation succeeded, false once it ended otherwise, unknown before. */
    public static final String SUCCEEDED = "Succeeded";
    /** True once the next step deletes the machine and its node for good. */
    public static final String PERMANENT_NODE_DELETION_EXPECTED = "PermanentNodeDeletionExpected";

    /** A condition's status. */
    public enum Status {
        /** The condition holds. */
        TRUE,
        /** The condition does not hold. */
        FALSE,
        /** Not known yet. */
        UNKNOWN
    }

    /** Validates the fields. */
    public RemediationCondition {
        Texts.requireText(type, "type");
        Objects.requireNonNull(status, "status");
        Texts.requireText(reason, "reason");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
    }
}
