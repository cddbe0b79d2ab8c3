package dev.remedy.fence.kube.remediation;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/**
 * The status of a {@link NodeFenceRemediation} (written through the status subresource): the conditions health
 * checkers read, {@code metav1.Condition}s keyed by type, and, for {@code spec.strategy: escalate}, the strategy's
 * phase, retries and the time its phase began (declared so that an API server keeps them: it prunes undeclared
 * fields).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class NodeFenceRemediationStatus {

    @JsonPropertyDescription("Processing, FenceAgentActionSucceeded, Succeeded and PermanentNodeDeletionExpected, "
            + "with FenceAgentsRemediation's reasons.")
    private List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("For strategy escalate: the phase (Pending, PoweringOff, WaitingForNode, Deleting, Succeeded, Deleted, Failed or Cancelled).")
    private String phase;

    @JsonPropertyDescription("For strategy escalate: how many power cycles were retried.")
    private Integer retryCount;

    @JsonPropertyDescription("For strategy escalate: when the phase began (RFC 3339).")
    private String phaseSince;

    /** An empty status. */
    public NodeFenceRemediationStatus() {
    }

    /** The conditions, by type. */
    public List<Condition> getConditions() {
        return conditions;
    }

    /** Sets the conditions. */
    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    /** The escalate strategy's phase, or null. */
    public String getPhase() {
        return phase;
    }

    /** Sets the phase. */
    public void setPhase(String phase) {
        this.phase = phase;
    }

    /** The escalate strategy's retries, or null. */
    public Integer getRetryCount() {
        return retryCount;
    }

    /** Sets the retries. */
    public void setRetryCount(Integer retryCount) {
        this.retryCount = retryCount;
    }

    /** When the escalate strategy's phase began (RFC 3339), or null. */
    public String getPhaseSince() {
        return phaseSince;
    }

    /** Sets when the phase began. */
    public void setPhaseSince(String phaseSince) {
        this.phaseSince = phaseSince;
    }
}
