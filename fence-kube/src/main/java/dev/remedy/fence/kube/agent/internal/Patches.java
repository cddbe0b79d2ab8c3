package dev.remedy.fence.kube.agent.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Map;

/**
 * The agents' writes: patches of one field, which change that field alone whoever else writes the object, and need
 * no resourceVersion.
 */
final class Patches {

    /** HTTP 422: a JSON patch whose {@code remove} names a path that is not there. */
    private static final int UNPROCESSABLE = 422;
    private static final ObjectMapper JSON = new ObjectMapper();

    private Patches() {
    }

    /** Sets annotation {@code key} to {@code value} with a JSON merge patch (RFC 7386). */
    static GenericKubernetesResource annotate(KubernetesClient client, ResourceDefinitionContext resource,
            String namespace, String name, String key, String value) {
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("metadata").putObject("annotations").put(key, value);
        return object(client, resource, namespace, name).patch(PatchContext.of(PatchType.JSON_MERGE),
                patch.toString());
    }

    /**
     * Removes annotation {@code key} with a JSON patch (RFC 6902) {@code remove}. A merge patch with a null value
     * would do on a real API server, but fabric8's mock server keeps the key with a null value; the JSON patch is
     * right on both. Removing an annotation that another client removed first is no error.
     */
    static void removeAnnotation(KubernetesClient client, ResourceDefinitionContext resource, String namespace,
            String name, String key) {
        String path = "/metadata/annotations/" + key.replace("~", "~0").replace("/", "~1");
        String patch = JSON.createArrayNode().add(JSON.createObjectNode().put("op", "remove").put("path", path))
                .toString();
        Resource<GenericKubernetesResource> object = object(client, resource, namespace, name);
        try {
            object.patch(PatchContext.of(PatchType.JSON), patch);
        } catch (KubernetesClientException e) {
            GenericKubernetesResource now = e.getCode() == UNPROCESSABLE ? object.get() : null;
            Map<String, String> annotations = now == null ? null : now.getMetadata().getAnnotations();
            if (now == null || annotations != null && annotations.containsKey(key)) {
                throw e;
            }
        }
    }

    /** Sets {@code spec.<field>} to {@code value} (a string or a boolean) with a JSON merge patch. */
    static GenericKubernetesResource spec(KubernetesClient client, ResourceDefinitionContext resource,
            String namespace, String name, String field, Object value) {
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("spec").set(field, JSON.valueToTree(value));
        return object(client, resource, namespace, name).patch(PatchContext.of(PatchType.JSON_MERGE),
                patch.toString());
    }

    private static Resource<GenericKubernetesResource> object(KubernetesClient client,
            ResourceDefinitionContext resource, String namespace, String name) {
        return client.genericKubernetesResources(resource).inNamespace(namespace).withName(name);
    }
}
