package dev.remedy.fence.kube.external.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Objects;

/**
 * An object to create for one remedy of one node.
 *
 * @param context   the object's kind and resource
 * @param object    the object, with {@code metadata.name} or (when {@code generated}) {@code metadata.generateName}
 * @param generated whether the API server chooses the name from {@code generateName}
 */
public record Blueprint(ResourceDefinitionContext context, GenericKubernetesResource object, boolean generated) {

    /** Validates that every field is present. */
    public Blueprint {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(object, "object");
    }

    /** The object's namespace. */
    public String namespace() {
        return object.getMetadata().getNamespace();
    }

    /** The object's name, or its {@code generateName} prefix. */
    public String name() {
        return generated ? object.getMetadata().getGenerateName() : object.getMetadata().getName();
    }
}
