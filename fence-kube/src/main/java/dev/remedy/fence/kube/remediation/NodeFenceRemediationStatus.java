package dev.remedy.fence.kube.remediation;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/**
 * The status of a {@link NodeFenceRemediation} (written through the status subresource): the conditions health
 * checkers read, {@code metav1.Condition}s keyed by type.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class NodeFenceRemediationStatus {

    @JsonPropertyDescription("Processing, FenceAgentActionSucceeded, Succeeded and PermanentNodeDeletionExpected, "
            + "with FenceAgentsRemediation's reasons.")
    private List<Condition> conditions = new ArrayList<>();

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
}
