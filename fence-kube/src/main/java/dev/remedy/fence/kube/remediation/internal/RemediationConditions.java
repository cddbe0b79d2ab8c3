package dev.remedy.fence.kube.remediation.internal;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The conditions of a NodeFenceRemediation as FenceAgentsRemediation writes them: {@code Processing},
 * {@code FenceAgentActionSucceeded} and {@code Succeeded}, each changed only when its status changes (then its reason,
 * message and {@code lastTransitionTime} change with it), and {@code PermanentNodeDeletionExpected}.
 */
public final class RemediationConditions {

    /** Condition type: the remediation is under way. */
    public static final String PROCESSING = "Processing";
    /** Condition type: the fence agent's action succeeded. */
    public static final String FENCE_AGENT_ACTION_SUCCEEDED = "FenceAgentActionSucceeded";
    /** Condition type: the remediation succeeded. */
    public static final String SUCCEEDED = "Succeeded";
    /** Condition type: the Node object will be deleted, so NodeHealthCheck keeps the remediation meanwhile. */
    public static final String PERMANENT_NODE_DELETION_EXPECTED = "PermanentNodeDeletionExpected";

    private static final String TRUE = "True";
    private static final String FALSE = "False";
    private static final String UNKNOWN = "Unknown";

    /** FenceAgentsRemediation's reasons, each with the statuses it sets (null: left alone). */
    public enum Reason {
        /** The finalizer is set and the remediation starts. */
        RemediationStarted(TRUE, UNKNOWN, UNKNOWN),
        /** The node is verified off. */
        FenceAgentSucceeded(null, TRUE, null),
        /** The fence agent failed beyond its retries, or the remediation cannot be run. */
        FenceAgentFailed(FALSE, FALSE, FALSE),
        /** The fence agent's attempts ran out of time. */
        FenceAgentTimedOut(FALSE, FALSE, FALSE),
        /** The node is fenced and its workloads released. */
        RemediationFinishedSuccessfully(FALSE, null, TRUE),
        /** NodeHealthCheck's timeout annotation appeared. */
        RemediationInterruptedByNHC(FALSE, FALSE, FALSE),
        /** No node of that name. */
        RemediationFinishedNodeNotFound(FALSE, FALSE, FALSE);

        private final String processing;
        private final String agent;
        private final String succeeded;

        Reason(String processing, String agent, String succeeded) {
            this.processing = processing;
            this.agent = agent;
            this.succeeded = succeeded;
        }
    }

    private RemediationConditions() {
    }

    /**
     * Applies {@code reason} to {@code conditions} (changed in place) at {@code now}, with {@code message}: each of
     * the three conditions whose status differs is replaced; one whose status is already the wanted one is kept as it
     * is, as FenceAgentsRemediation does.
     *
     * @return whether anything changed
     */
    public static boolean apply(List<Condition> conditions, Reason reason, String message, Instant now) {
        boolean changed = change(conditions, PROCESSING, reason.processing, reason.name(), message, now);
        changed |= change(conditions, FENCE_AGENT_ACTION_SUCCEEDED, reason.agent, reason.name(), message, now);
        changed |= change(conditions, SUCCEEDED, reason.succeeded, reason.name(), message, now);
        return changed;
    }

    /**
     * Sets {@code type} to {@code status}, {@code reason} and {@code message}: {@code lastTransitionTime} changes only
     * if the status does (Kubernetes' {@code meta.SetStatusCondition}).
     *
     * @return whether anything changed
     */
    public static boolean set(List<Condition> conditions, String type, String status, String reason, String message,
                              Instant now) {
        Optional<Condition> current = find(conditions, type);
        if (current.isPresent() && status.equals(current.get().getStatus())
                && reason.equals(current.get().getReason()) && message.equals(current.get().getMessage())) {
            return false;
        }
        String since = current.filter(c -> status.equals(c.getStatus())).map(Condition::getLastTransitionTime)
                .orElse(rfc3339(now));
        Condition next = new ConditionBuilder().withType(type).withStatus(status).withReason(reason)
                .withMessage(message).withLastTransitionTime(since).build();
        current.ifPresentOrElse(c -> conditions.set(conditions.indexOf(c), next), () -> conditions.add(next));
        return true;
    }

    /** The condition {@code type}, if present. */
    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** Whether condition {@code type} has {@code status}. */
    public static boolean is(List<Condition> conditions, String type, String status) {
        return find(conditions, type).map(c -> status.equals(c.getStatus())).orElse(false);
    }

    /** Whether the remediation has ended: {@code Succeeded} is True or False. */
    public static boolean ended(List<Condition> conditions) {
        return is(conditions, SUCCEEDED, TRUE) || is(conditions, SUCCEEDED, FALSE);
    }

    /** {@code now} as Kubernetes writes times: RFC 3339 in whole seconds. */
    public static String rfc3339(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static boolean change(List<Condition> conditions, String type, String status, String reason,
                                  String message, Instant now) {
        if (status == null || is(conditions, type, status)) {
            return false;
        }
        return set(conditions, type, status, reason, Objects.requireNonNull(message, "message"), now);
    }
}
