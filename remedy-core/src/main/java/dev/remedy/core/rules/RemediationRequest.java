package dev.remedy.core.rules;

import java.util.Map;
import java.util.Objects;

/**
 * A remediation object made from a {@link RemediationTemplate} for one machine. Its creation asks for remediation and
 * its deletion ends it; the owner reference ties its lifetime to the machine.
 *
 * @param apiVersion the object's API version (the template's)
 * @param kind       the object's kind (the template's without {@code Template})
 * @param name       the machine's name
 * @param namespace  the machine's namespace
 * @param owner      the controller reference to the machine
 * @param spec       the spec, copied from the template
 */
public record RemediationRequest(String apiVersion, String kind, String name, String namespace, OwnerReference owner,
        Map<String, Object> spec) {

    /** Validates the fields and copies the spec. */
    public RemediationRequest {
        Texts.requireText(apiVersion, "apiVersion");
        Texts.requireText(kind, "kind");
        Texts.requireText(name, "name");
        Texts.requireText(namespace, "namespace");
        Objects.requireNonNull(owner, "owner");
        spec = Texts.deepCopy(spec, "spec");
    }
}
