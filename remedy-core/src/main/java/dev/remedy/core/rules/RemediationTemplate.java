package dev.remedy.core.rules;

import java.util.Map;

/**
 * An external remediation template (Cluster API convention): its kind ends in {@code Template}, and the objects made
 * from it have the kind without that suffix.
 *
 * @param apiVersion the template's API version
 * @param kind       the template's kind, ending in {@code Template}, for example {@code Metal3RemediationTemplate}
 * @param spec       the spec copied into each remediation object (the template's {@code spec.template.spec});
 *                   deep-copied, JSON-like values only
 */
public record RemediationTemplate(String apiVersion, String kind, Map<String, Object> spec) {

    /** The suffix every template kind ends with. */
    public static final String KIND_SUFFIX = "Template";

    /** Validates the fields and copies the spec. */
    public RemediationTemplate {
        Texts.requireText(apiVersion, "apiVersion");
        Texts.requireText(kind, "kind");
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
}
