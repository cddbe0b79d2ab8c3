package dev.remedy.fence.kube.events;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;

/** The objects remedy's Events are about. */
public final class References {

    /** The API version of remedy's NodeFence custom resource. */
    public static final String NODE_FENCE_API_VERSION = "remedy.dev/v1alpha1";

    private References() {
    }

    /** The Node named {@code name} (cluster-scoped, {@code v1}). */
    public static ObjectReference node(String name) {
        return new ObjectReferenceBuilder().withApiVersion("v1").withKind("Node").withName(name).build();
    }

    /** The NodeFence of node {@code name} (cluster-scoped, named like the node). */
    public static ObjectReference nodeFence(String name) {
        return new ObjectReferenceBuilder().withApiVersion(NODE_FENCE_API_VERSION).withKind("NodeFence")
                .withName(name).build();
    }
}
