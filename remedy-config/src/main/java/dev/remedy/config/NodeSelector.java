package dev.remedy.config;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An equality label selector, as Kubernetes {@code matchLabels}: a node matches when it has every label with
 * exactly the given value. The empty selector matches every node.
 *
 * @param matchLabels the labels a node must have, with their values
 */
public record NodeSelector(Map<String, String> matchLabels) {

    /** The selector that matches every node. */
    public static final NodeSelector ALL = new NodeSelector(Map.of());

    /** Validates that no key or value is null and copies the labels (sorted, for stable text). */
    public NodeSelector {
        Objects.requireNonNull(matchLabels, "matchLabels");
        matchLabels.forEach((key, value) -> {
            Objects.requireNonNull(key, "label key");
            Objects.requireNonNull(value, "value of label " + key);
        });
        matchLabels = Collections.unmodifiableMap(new TreeMap<>(matchLabels));
    }

    /** Whether a node with {@code labels} matches. */
    public boolean matches(Map<String, String> labels) {
        Objects.requireNonNull(labels, "labels");
        for (Map.Entry<String, String> wanted : matchLabels.entrySet()) {
            if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** Whether this selector matches every node (it has no labels). */
    public boolean matchesAll() {
        return matchLabels.isEmpty();
    }
}
