package dev.remedy.core.rules;

import java.util.Map;

/**
 * An external remediation template (Cluster API and medik8s convention): its kind ends in {@code Template}, and the
 * objects made from it have the kind without that suffix and the template's {@code spec.template.spec}.
 *
 * @param apiVersion        the template's API version, {@code group/version}
 * @param kind              the template's kind, ending in {@code Template}, for example
 *                          {@code Metal3RemediationTemplate}
 * @param name              the template object's name
 * @param namespace         the template object's namespace
 * @param multipleTemplates whether the template carries {@value ExternalRemediation#MULTIPLE_TEMPLATES_ANNOTATION}
 *                          {@code "true"}: its remediator accepts several objects per node, so objects made for a
 *                          plain node get {@code generateName}
 * @param spec              the spec copied into each remediation object (the template's {@code spec.template.spec});
 *                          deep-copied, JSON-like values only
 */
public record RemediationTemplate(String apiVersion, String kind, String name, String namespace,
        boolean multipleTemplates, Map<String, Object> spec) {

    /** The suffix every template kind ends with. */
    public static final String KIND_SUFFIX = "Template";

    /** Validates the fields and copies the spec. */
    public RemediationTemplate {
        Texts.requireText(apiVersion, "apiVersion");
        Texts.requireText(kind, "kind");
        Texts.requireText(name, "name");
        Texts.requireText(namespace, "namespace");
        if (!kind.endsWith(KIND_SUFFIX) || kind.length() == KIND_SUFFIX.length()) {
            throw new IllegalArgumentException("kind: '" + kind + "' must be a kind followed by '" + KIND_SUFFIX
                    + "', for example Metal3RemediationTemplate");
        }
        spec = Texts.deepCopy(spec, "spec");
    }

    /**
     * The kind of the objects made from this template.
     *
     * @return the kind without the {@code Template} suffix
     */
    public String objectKind() {
        return kind.substring(0, kind.length() - KIND_SUFFIX.length());
    }

    /**
     * The template's group and kind as Kubernetes writes a GroupKind: {@code Kind.group}, or the kind alone for the
     * core group.
     *
     * @return for example {@code Metal3RemediationTemplate.infrastructure.cluster.x-k8s.io}
     */
    public String groupKind() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? kind : kind + "." + apiVersion.substring(0, slash);
    }
}
