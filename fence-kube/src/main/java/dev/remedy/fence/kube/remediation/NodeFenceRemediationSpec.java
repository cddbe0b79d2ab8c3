package dev.remedy.fence.kube.remediation;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import java.util.Map;

/**
 * The spec of a {@link NodeFenceRemediation}: FenceAgentsRemediation's fields under their own names (a
 * FenceAgentsRemediation migrates by changing {@code apiVersion} and {@code kind}), remedy's {@code topology}, and the
 * fields of the escalation strategy, which {@link RemediationController} does not act on (see
 * {@link StrategyRemediator}).
 *
 * <p>A plain Jackson bean; the defaults are applied by the API server (CRD defaults) and again by the controller when
 * a field is absent.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class NodeFenceRemediationSpec {

    @JsonProperty("agent")
    @JsonPropertyDescription("The fence agent, as FenceAgentsRemediation names it (fence_ipmilan and its "
            + "aliases fence_ipmilanplus, fence_idrac, fence_ilo3, fence_ilo4, fence_ilo5 and fence_imm run "
            + "remedy's ipmi agent; fence_redfish runs redfish), or a remedy agent type (ipmi, redfish). Absent: "
            + "the node is fenced with remedy's fence topology (see topology).")
    private String agent;

    @JsonProperty("sharedparameters")
    @JsonPropertyDescription("Agent parameters for every node, keyed as FenceAgentsRemediation writes them "
            + "(--ip, --username; the leading -- is optional); a flag such as --lanplus may have an empty value, "
            + "meaning true.")
    private Map<String, String> sharedParameters;

    @JsonProperty("nodeparameters")
    @JsonPropertyDescription("Agent parameters per node (parameter to node to value); a node's value overrides "
            + "a shared one.")
    private Map<String, Map<String, String>> nodeParameters;

    @JsonProperty("retrycount")
    @Default("5")
    @JsonPropertyDescription("How many times the power operation is tried (FenceAgentsRemediation's attempts): "
            + "the power step gets retrycount - 1 retries.")
    private Integer retryCount;

    @JsonProperty("retryinterval")
    @Default("5s")
    @JsonPropertyDescription("The pause between attempts (a Go duration such as 5s); added to the power step's "
            + "budget once per retry.")
    private String retryInterval;

    @JsonProperty("timeout")
    @Default("60s")
    @JsonPropertyDescription("The budget of one attempt (a Go duration such as 60s); the power step's budget "
            + "is retrycount x timeout plus the intervals.")
    private String timeout;

    @JsonProperty("remediationStrategy")
    @Default("ResourceDeletion")
    @JsonPropertyDescription("How the fenced node's workloads are released: ResourceDeletion (force-delete its "
            + "pods and delete the Node object, restored before the machine is powered on again; "
            + "PermanentNodeDeletionExpected=True tells NodeHealthCheck) or OutOfServiceTaint (the "
            + "node.kubernetes.io/out-of-service taint while the machine is verified off).")
    private String remediationStrategy;

    @JsonProperty("nodeSecretNames")
    @JsonPropertyDescription("Per node, the Secret in this namespace whose keys are more parameters of that "
            + "node (--password ...).")
    private Map<String, String> nodeSecretNames;

    @JsonProperty("sharedSecretName")
    @JsonPropertyDescription("The Secret in this namespace whose keys are parameters for every node "
            + "(--password ...); absent: fence-agents-credentials-shared, if it exists, as FenceAgentsRemediation "
            + "reads it.")
    private String sharedSecretName;

    @JsonProperty("topology")
    @JsonPropertyDescription("Only without agent: the name of the fence topology of the operator's fence "
            + "configuration the node must be fenced with (its levels, retries and timeouts; the release strategy "
            + "stays this resource's). Absent: whichever topology of the configuration covers the node. The "
            + "remediation fails if the configuration covers the node with another topology, or not at all.")
    private String topology;

    @JsonProperty("strategy")
    @JsonPropertyDescription("escalate: the escalation driver takes this remediation (power off, wait, delete "
            + "after retries); this controller only keeps its finalizer. Absent: fence as FenceAgentsRemediation "
            + "does.")
    private String strategy;

    @JsonProperty("deleteAfterRetries")
    @JsonPropertyDescription("For strategy escalate: retries after which the Machine or Node is deleted.")
    private Integer deleteAfterRetries;

    @JsonProperty("powerOnTimeoutSeconds")
    @JsonPropertyDescription("For strategy escalate: how long a power-on may take.")
    private Integer powerOnTimeoutSeconds;

    @JsonProperty("powerOffTimeoutSeconds")
    @JsonPropertyDescription("For strategy escalate: how long a power-off may take.")
    private Integer powerOffTimeoutSeconds;

    /** An empty spec. */
    public NodeFenceRemediationSpec() {
    }

    /** The fence agent (FenceAgentsRemediation's name or a remedy agent type), or null for the fence topology. */
    public String getAgent() {
        return agent;
    }

    /** Sets agent. */
    public void setAgent(String agent) {
        this.agent = agent;
    }

    /** Parameters for every node (parameter to value). */
    public Map<String, String> getSharedParameters() {
        return sharedParameters;
    }

    /** Sets sharedparameters. */
    public void setSharedParameters(Map<String, String> sharedParameters) {
        this.sharedParameters = sharedParameters;
    }

    /** Parameters per node (parameter to node to value). */
    public Map<String, Map<String, String>> getNodeParameters() {
        return nodeParameters;
    }

    /** Sets nodeparameters. */
    public void setNodeParameters(Map<String, Map<String, String>> nodeParameters) {
        this.nodeParameters = nodeParameters;
    }

    /** How many attempts the power operation gets. */
    public Integer getRetryCount() {
        return retryCount;
    }

    /** Sets retrycount. */
    public void setRetryCount(Integer retryCount) {
        this.retryCount = retryCount;
    }

    /** The pause between attempts. */
    public String getRetryInterval() {
        return retryInterval;
    }

    /** Sets retryinterval. */
    public void setRetryInterval(String retryInterval) {
        this.retryInterval = retryInterval;
    }

    /** The budget of one attempt. */
    public String getTimeout() {
        return timeout;
    }

    /** Sets timeout. */
    public void setTimeout(String timeout) {
        this.timeout = timeout;
    }

    /** ResourceDeletion or OutOfServiceTaint. */
    public String getRemediationStrategy() {
        return remediationStrategy;
    }

    /** Sets remediationStrategy. */
    public void setRemediationStrategy(String remediationStrategy) {
        this.remediationStrategy = remediationStrategy;
    }

    /** Per node, the name of a Secret of parameters. */
    public Map<String, String> getNodeSecretNames() {
        return nodeSecretNames;
    }

    /** Sets nodeSecretNames. */
    public void setNodeSecretNames(Map<String, String> nodeSecretNames) {
        this.nodeSecretNames = nodeSecretNames;
    }

    /** The name of the Secret of shared parameters. */
    public String getSharedSecretName() {
        return sharedSecretName;
    }

    /** Sets sharedSecretName. */
    public void setSharedSecretName(String sharedSecretName) {
        this.sharedSecretName = sharedSecretName;
    }

    /** The fence topology to use when agent is absent. */
    public String getTopology() {
        return topology;
    }

    /** Sets topology. */
    public void setTopology(String topology) {
        this.topology = topology;
    }

    /** The escalation strategy, or null. */
    public String getStrategy() {
        return strategy;
    }

    /** Sets strategy. */
    public void setStrategy(String strategy) {
        this.strategy = strategy;
    }

    /** For strategy escalate: retries before deletion. */
    public Integer getDeleteAfterRetries() {
        return deleteAfterRetries;
    }

    /** Sets deleteAfterRetries. */
    public void setDeleteAfterRetries(Integer deleteAfterRetries) {
        this.deleteAfterRetries = deleteAfterRetries;
    }

    /** For strategy escalate: power-on timeout in seconds. */
    public Integer getPowerOnTimeoutSeconds() {
        return powerOnTimeoutSeconds;
    }

    /** Sets powerOnTimeoutSeconds. */
    public void setPowerOnTimeoutSeconds(Integer powerOnTimeoutSeconds) {
        this.powerOnTimeoutSeconds = powerOnTimeoutSeconds;
    }

    /** For strategy escalate: power-off timeout in seconds. */
    public Integer getPowerOffTimeoutSeconds() {
        return powerOffTimeoutSeconds;
    }

    /** Sets powerOffTimeoutSeconds. */
    public void setPowerOffTimeoutSeconds(Integer powerOffTimeoutSeconds) {
        this.powerOffTimeoutSeconds = powerOffTimeoutSeconds;
    }
}
