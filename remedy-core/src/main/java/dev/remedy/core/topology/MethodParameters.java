package dev.remedy.core.topology;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Agent parameters as the configuration gives them: plain values and references to secrets, by the
 * parameter's canonical name (fence-agents aliases are resolved when the file is read).
 */
record MethodParameters(Map<String, String> values, Map<String, SecretRef> secrets) {

    static final MethodParameters NONE = new MethodParameters(Map.of(), Map.of());

    MethodParameters {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        secrets = Collections.unmodifiableMap(new LinkedHashMap<>(secrets));
    }

    /** These parameters with those of {@code override} put over them (the override wins). */
    MethodParameters overriddenBy(MethodParameters override) {
        Map<String, String> mergedValues = new LinkedHashMap<>(values);
        mergedValues.putAll(override.values);
        Map<String, SecretRef> mergedSecrets = new LinkedHashMap<>(secrets);
        mergedSecrets.putAll(override.secrets);
        return new MethodParameters(mergedValues, mergedSecrets);
    }

    /** Whether a value or a secret reference is given for {@code name}. */
    boolean gives(String name) {
        return values.containsKey(name) || secrets.containsKey(name);
    }
}
