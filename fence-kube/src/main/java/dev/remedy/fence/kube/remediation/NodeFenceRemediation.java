package dev.remedy.fence.kube.remediation;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The {@code NodeFenceRemediation} custom resource ({@code remedy.dev/v1alpha1}, namespaced, plural
 * {@code nodefenceremediations}, short name {@code nfr}, status subresource): a request to fence one node, created by
 * a health checker (NodeHealthCheck from a {@link NodeFenceRemediationTemplate}, MachineHealthCheck for a Machine) or
 * by hand. Its spec is FenceAgentsRemediation's ({@link NodeFenceRemediationSpec}); its status holds the conditions
 * {@code Processing}, {@code FenceAgentActionSucceeded}, {@code Succeeded} and {@code PermanentNodeDeletionExpected}
 * ({@link NodeFenceRemediationStatus}). {@link RemediationController} acts on it.
 */
@Group(NodeFenceRemediation.GROUP)
@Version(NodeFenceRemediation.VERSION)
@Kind(NodeFenceRemediation.KIND)
@Plural(NodeFenceRemediation.PLURAL)
@Singular("nodefenceremediation")
@ShortNames("nfr")
@AdditionalPrinterColumn(name = "Agent", jsonPath = ".spec.agent", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Succeeded", jsonPath = ".status.conditions[?(@.type==\"Succeeded\")].status",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class NodeFenceRemediation extends CustomResource<NodeFenceRemediationSpec, NodeFenceRemediationStatus>
        implements Namespaced {

    /** The API group. */
    public static final String GROUP = "remedy.dev";
    /** The API version within the group. */
    public static final String VERSION = "v1alpha1";
    /** The kind. */
    public static final String KIND = "NodeFenceRemediation";
    /** The plural, as in the resource's path. */
    public static final String PLURAL = "nodefenceremediations";

    private static final long serialVersionUID = 1L;

    /** An empty resource (for the client's deserializer). */
    public NodeFenceRemediation() {
        super();
    }

    @Override
    protected NodeFenceRemediationSpec initSpec() {
        return new NodeFenceRemediationSpec();
    }

    @Override
    protected NodeFenceRemediationStatus initStatus() {
        return new NodeFenceRemediationStatus();
    }
}
