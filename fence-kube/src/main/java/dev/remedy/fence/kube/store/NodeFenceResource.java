package dev.remedy.fence.kube.store;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The {@code NodeFence} custom resource ({@code remedy.dev/v1alpha1}, plural {@code nodefences}, short name
 * {@code nf}): remedy's fence record of one node, cluster-scoped and named like the node. {@code kubectl get
 * nodefences} shows the node, step, state, retries, reason and age; {@link NodeFenceSpec} holds the readable fields
 * and the complete record.
 *
 * <p><b>No owner reference to the Node, ever.</b> Deleting the Node is one of remedy's release strategies, and the
 * NodeFence is the record that says how to restore it (and whether the machine may be powered off): if it were owned
 * by the Node, the garbage collector would delete it with the Node. {@link KubeFenceStateStore} never sets owner
 * references.
 *
 * <p><b>No status subresource.</b> The record is written in the main resource, in {@code spec}, with one PUT
 * guarded by the resourceVersion that was read, so the API server's optimistic concurrency covers the whole
 * record. With a status subresource the main PUT would drop status changes, and a separate {@code /status} write
 * could not be made atomic with it.
 *
 * <p>Admins give commands with annotations on this resource; see {@link AdminAnnotations}.
 */
@Group(NodeFenceResource.GROUP)
@Version(NodeFenceResource.VERSION)
@Kind(NodeFenceResource.KIND)
@Plural(NodeFenceResource.PLURAL)
@Singular("nodefence")
@ShortNames("nf")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class NodeFenceResource extends CustomResource<NodeFenceSpec, Void> {

    /** The API group. */
    public static final String GROUP = "remedy.dev";
    /** The API version within the group. */
    public static final String VERSION = "v1alpha1";
    /** The kind. */
    public static final String KIND = "NodeFence";
    /** The plural, as in the resource's path. */
    public static final String PLURAL = "nodefences";

    private static final long serialVersionUID = 1L;

    /** An empty resource (for the client's deserializer); set metadata and spec before writing it. */
    public NodeFenceResource() {
        super();
    }

    @Override
    protected NodeFenceSpec initSpec() {
        return new NodeFenceSpec();
    }
}
