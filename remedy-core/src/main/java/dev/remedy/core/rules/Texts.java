package dev.remedy.core.rules;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Small validation and copying helpers of this package. */
final class Texts {

    private Texts() {
    }

    static String requireText(String value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + ": must not be blank");
        }
        return value;
    }

    /** A deep, unmodifiable copy of a JSON-like map (strings, numbers, booleans, maps and lists; no nulls). */
    static Map<String, Object> deepCopy(Map<String, ?> map, String path) {
        Objects.requireNonNull(map, path);
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> {
            Objects.requireNonNull(k, () -> path + ": a key is null");
            copy.put(k, copyValue(v, path + "." + k));
        });
        return Collections.unmodifiableMap(copy);
    }

    @SuppressWarnings("unchecked")
    private static Object copyValue(Object v, String path) {
        if (v == null) {
            throw new IllegalArgumentException(path + ": null values are not allowed; leave the field out");
        }
        if (v instanceof Map<?, ?> m) {
            for (Object k : m.keySet()) {
                if (!(k instanceof String)) {
                    throw new IllegalArgumentException(path + ": keys must be strings, found " + k);
                }
            }
            return deepCopy((Map<String, ?>) m, path);
        }
        if (v instanceof List<?> l) {
            List<Object> copy = new ArrayList<>(l.size());
            for (int i = 0; i < l.size(); i++) {
                copy.add(copyValue(l.get(i), path + "[" + i + "]"));
            }
            return List.copyOf(copy);
        }
        if (v instanceof String || v instanceof Number || v instanceof Boolean) {
            return v;
        }
        throw new IllegalArgumentException(path + ": unsupported value type " + v.getClass().getName()
                + "; use strings, numbers, booleans, maps and lists");
    }
}
