package dev.remedy.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A read-only node of a parsed YAML or JSON document: a mapping, a list, a scalar, null, or missing (an empty
 * document). Absent keys and indexes give {@code null}, so a reader can tell "not given" from "given as null".
 * The parser behind it stays out of every signature.
 *
 * <p>Immutable and thread-safe.
 */
public final class ConfigNode {

    private final JsonNode node;

    ConfigNode(JsonNode node) {
        this.node = Objects.requireNonNull(node, "node");
    }

    /** Whether this is a mapping. */
    public boolean isObject() {
        return node.isObject();
    }

    /** Whether this is a list. */
    public boolean isArray() {
        return node.isArray();
    }

    /** Whether this is text. */
    public boolean isTextual() {
        return node.isTextual();
    }

    /** Whether this is an explicit null ({@code key:} with nothing after it in YAML). */
    public boolean isNull() {
        return node.isNull();
    }

    /** Whether this stands for an empty document. */
    public boolean isMissingNode() {
        return node.isMissingNode();
    }

    /** Whether this is a mapping or a list. */
    public boolean isContainerNode() {
        return node.isContainerNode();
    }

    /** Whether this is a number. */
    public boolean isNumber() {
        return node.isNumber();
    }

    /** Whether this is a whole number. */
    public boolean isIntegralNumber() {
        return node.isIntegralNumber();
    }

    /** Whether this is {@code true} or {@code false}. */
    public boolean isBoolean() {
        return node.isBoolean();
    }

    /** Whether this is a number that fits an {@code int} without loss. */
    public boolean canConvertToInt() {
        return node.canConvertToInt();
    }

    /** This number as an {@code int}; 0 for anything else. */
    public int intValue() {
        return node.intValue();
    }

    /** This boolean's value; {@code false} for anything else. */
    public boolean booleanValue() {
        return node.booleanValue();
    }

    /** A scalar as text ({@code 300}, {@code true}, {@code 5s}); the empty string for mappings and lists. */
    public String asText() {
        return node.asText();
    }

    /** The number of entries of a mapping or elements of a list; 0 for anything else. */
    public int size() {
        return node.size();
    }

    /** Whether this has no entries or elements (always true for a scalar). */
    public boolean isEmpty() {
        return node.isEmpty();
    }

    /** Whether this mapping has {@code key}. */
    public boolean has(String key) {
        return node.isObject() && node.has(key);
    }

    /** The value of {@code key} in this mapping, or {@code null} if absent or this is not a mapping. */
    public ConfigNode get(String key) {
        JsonNode child = node.isObject() ? node.get(key) : null;
        return child == null ? null : new ConfigNode(child);
    }

    /** Element {@code index} of this list, or {@code null} if absent or this is not a list. */
    public ConfigNode get(int index) {
        JsonNode child = node.isArray() ? node.get(index) : null;
        return child == null ? null : new ConfigNode(child);
    }

    /** The keys of this mapping in document order; empty for anything else. */
    public List<String> keys() {
        List<String> keys = new ArrayList<>();
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(keys::add);
        }
        return List.copyOf(keys);
    }

    /** The entries of this mapping in document order; empty for anything else. */
    public List<Map.Entry<String, ConfigNode>> properties() {
        if (!node.isObject()) {
            return List.of();
        }
        List<Map.Entry<String, ConfigNode>> entries = new ArrayList<>();
        node.properties().forEach(e -> entries.add(Map.entry(e.getKey(), new ConfigNode(e.getValue()))));
        return Collections.unmodifiableList(entries);
    }

    /** The elements of this list in order; empty for anything else. */
    public List<ConfigNode> elements() {
        List<ConfigNode> elements = new ArrayList<>();
        if (node.isArray()) {
            node.elements().forEachRemaining(e -> elements.add(new ConfigNode(e)));
        }
        return Collections.unmodifiableList(elements);
    }

    /**
     * This node as plain, unmodifiable Java values: mappings as {@code Map<String, Object>} in document order,
     * lists as {@code List<Object>}, text as {@code String}, booleans as {@code Boolean}, whole numbers as
     * {@code Long} (or {@code BigInteger} when too large), other numbers as {@code Double}, null as {@code null}.
     */
    public Object toPlain() {
        return plain(node);
    }

    private static Object plain(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.properties().forEach(e -> map.put(e.getKey(), plain(e.getValue())));
            return Collections.unmodifiableMap(map);
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.elements().forEachRemaining(e -> list.add(plain(e)));
            return Collections.unmodifiableList(list);
        }
        if (node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        return node.asText();
    }

    /** The node's kind ({@code OBJECT}, {@code STRING}, …), never its content, which may hold a secret. */
    @Override
    public String toString() {
        return node.getNodeType().toString();
    }
}
