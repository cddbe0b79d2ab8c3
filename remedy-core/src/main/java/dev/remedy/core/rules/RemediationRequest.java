package dev.remedy.core.rules;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A remediation object made from a {@link RemediationTemplate} for one node or machine. Its creation asks for
 * remediation and its deletion ends it.
 *
 * @param apiVersion   the object's API version (the template's)
 * @param kind         the object's kind (the template's without {@code Template})
 * @param name         the object's name, or with {@code generateName} the prefix the API server completes
 * @param generateName whether {@code name} is a {@code generateName} prefix
 * @param namespace    the object's namespace
 * @param labels       the object's labels; copied
 * @param annotations  the object's annotations; copied
 * @param owners       the object's owner references, often none or one; copied
 * @param spec         the spec, copied from the template
 */
public record RemediationRequest(String apiVersion, String kind, String name, boolean generateName, String namespace,
        Map<String, String> labels, Map<String, String> annotations, List<OwnerReference> owners,
        Map<String, Object> spec) {

    /** Validates the fields and copies the collections. */
    public RemediationRequest {
        Texts.requireText(apiVersion, "apiVersion");
        Texts.requireText(kind, "kind");
        Texts.requireText(name, "name");
        Texts.requireText(namespace, "namespace");
        labels = Map.copyOf(Objects.requireNonNull(labels, "labels"));
        annotations = Map.copyOf(Objects.requireNonNull(annotations, "annotations"));
        owners = List.copyOf(Objects.requireNonNull(owners, "owners"));
        spec = Texts.deepCopy(spec, "spec");
    }
}
