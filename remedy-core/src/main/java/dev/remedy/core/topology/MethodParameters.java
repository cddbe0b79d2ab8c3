package dev.remedy.core.topology;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Agent parameters as the configuration gives them: plain values and references to secrets, by the
 * parameter's canonical name (fence-agents aliases are resolved when the file is read), and the key each was
 * written as, so that a problem is reported where the file has it.
 */
record MethodParameters(Map<String, String> values, Map<String, SecretRef> secrets, Map<String, String> writtenAs) {

    static final MethodParameters NONE = new MethodParameters(Map.of(), Map.of(), Map.of());

    MethodParameters {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        secrets = Collections.unmodifiableMap(new LinkedHashMap<>(secrets));
        writtenAs = Collections.unmodifiableMap(new LinkedHashMap<>(writtenAs));
    }

    /** These parameters with those of {@code override} put over them (the override wins). */
    MethodParameters overriddenBy(MethodParameters override) {
        Map<String, String> mergedValues = new LinkedHashMap<>(values);
        mergedValues.putAll(override.values);
        Map<String, SecretRef> mergedSecrets = new LinkedHashMap<>(secrets);
        mergedSecrets.putAll(override.secrets);
        Map<String, String> mergedKeys = new LinkedHashMap<>(writtenAs);
        mergedKeys.putAll(override.writtenAs);
        return new MethodParameters(mergedValues, mergedSecrets, mergedKeys);
    }

    /** Whether a value or a secret reference is given for {@code name}. */
    boolean gives(String name) {
        return values.containsKey(name) || secrets.containsKey(name);
    }

    /** The key {@code name} was written as (its name or its fence-agents alias); the name if it was not written. */
    String keyOf(String name) {
        return writtenAs.getOrDefault(name, name);
    }
}
