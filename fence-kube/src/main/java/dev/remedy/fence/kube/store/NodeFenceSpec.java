package dev.remedy.fence.kube.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.PrinterColumn;

/**
 * The spec of a {@link NodeFenceResource}: readable fields for people and {@code kubectl}, and {@link #getRecord()
 * record}, the complete fence record as remedy-core's JSON document ({@link dev.remedy.core.store.FenceRecordJson}).
 * The record is the truth; the readable fields are copied from it on every save and are never read back.
 *
 * <p>The record is kept as a structured JSON object ({@code x-kubernetes-preserve-unknown-fields}), not as a
 * string: {@code kubectl get nodefence NODE -o yaml} shows it as readable YAML, an admin can repair one field with
 * {@code kubectl patch --type=json}, and the API server already refuses anything that is not an object. The store
 * reads it back with the strict core codec (format number, unknown and missing fields, codes), so nothing is lost
 * by the API server's re-encoding: key order and spacing carry no meaning in the document.
 *
 * <p>A plain Jackson bean (not a {@code KubernetesResource}, which fabric8 would read polymorphically).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"node", "step", "state", "retries", "restarts", "reason", "released", "poweredOff", "version",
    "record"})
public class NodeFenceSpec {

    @PrinterColumn(name = "Node")
    @JsonPropertyDescription("The node this record is about (the resource is named like it).")
    private String node;

    @PrinterColumn(name = "Step")
    @JsonPropertyDescription("The step of the flow: isolate, power, confirm, release or recover.")
    private String step;

    @PrinterColumn(name = "State")
    @JsonPropertyDescription("The state of the flow: NEW, RUNNING, DONE, ERROR or FINAL.")
    private String state;

    @PrinterColumn(name = "Retries")
    @JsonPropertyDescription("Retries used in the current step.")
    private Integer retries;

    @JsonPropertyDescription("Whole-flow restarts used.")
    private Integer restarts;

    @PrinterColumn(name = "Reason")
    @JsonPropertyDescription("Why the flow is where it is, for people.")
    private String reason;

    @JsonPropertyDescription("Whether workloads were released.")
    private Boolean released;

    @JsonPropertyDescription("Whether remedy may have powered the node off and has not powered it on since.")
    private Boolean poweredOff;

    @JsonPropertyDescription("The record's optimistic-concurrency version, incremented on every save.")
    private Long version;

    @JsonPropertyDescription("The complete fence record, remedy-core's JSON document (read strictly; do not edit "
            + "while the engine runs).")
    private JsonNode record;

    /** An empty spec. */
    public NodeFenceSpec() {
    }

    /** The node this record is about. */
    public String getNode() {
        return node;
    }

    /** Sets the node. */
    public void setNode(String node) {
        this.node = node;
    }

    /** The step's code. */
    public String getStep() {
        return step;
    }

    /** Sets the step's code. */
    public void setStep(String step) {
        this.step = step;
    }

    /** The state's code. */
    public String getState() {
        return state;
    }

    /** Sets the state's code. */
    public void setState(String state) {
        this.state = state;
    }

    /** Retries used in the current step. */
    public Integer getRetries() {
        return retries;
    }

    /** Sets the retries. */
    public void setRetries(Integer retries) {
        this.retries = retries;
    }

    /** Whole-flow restarts used. */
    public Integer getRestarts() {
        return restarts;
    }

    /** Sets the restarts. */
    public void setRestarts(Integer restarts) {
        this.restarts = restarts;
    }

    /** Why the flow is where it is. */
    public String getReason() {
        return reason;
    }

    /** Sets the reason. */
    public void setReason(String reason) {
        this.reason = reason;
    }

    /** Whether workloads were released. */
    public Boolean getReleased() {
        return released;
    }

    /** Sets whether workloads were released. */
    public void setReleased(Boolean released) {
        this.released = released;
    }

    /** Whether remedy may have powered the node off. */
    public Boolean getPoweredOff() {
        return poweredOff;
    }

    /** Sets whether remedy may have powered the node off. */
    public void setPoweredOff(Boolean poweredOff) {
        this.poweredOff = poweredOff;
    }

    /** The record's version. */
    public Long getVersion() {
        return version;
    }

    /** Sets the record's version. */
    public void setVersion(Long version) {
        this.version = version;
    }

    /** The complete record as a JSON object. */
    public JsonNode getRecord() {
        return record;
    }

    /** Sets the complete record. */
    public void setRecord(JsonNode record) {
        this.record = record;
    }
}
