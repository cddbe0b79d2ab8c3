package dev.remedy.config;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads node selectors and node labels, the one way every configuration reader does: as a mapping of label keys
 * to values (Kubernetes {@code matchLabels}), or as equality text {@code key=value,key2=value2} (the Node remedy
 * design's {@code nodeSelector}). Every label key and value is checked by Kubernetes' rules ({@link Labels});
 * each problem is recorded in the document's {@link ConfigProblems} with its path, and the selector is empty
 * then.
 *
 * <p>One instance reads one document, on one thread.
 */
public final class SelectorReader {

    private static final Pattern EQUALITY = Pattern.compile("\\s*([^=!,\\s]+)\\s*==?\\s*([^=!,\\s]*)\\s*");

    private final ConfigProblems problems;

    /** A reader that records its problems in {@code problems}. */
    public SelectorReader(ConfigProblems problems) {
        this.problems = problems;
    }

    /**
     * A {@code matchLabels} mapping, such as {@code {node-role.kubernetes.io/worker: ""}}; a selector of every node
     * when {@code node} is null (not given).
     */
    public Optional<NodeSelector> matchLabels(ConfigNode node, String path) {
        if (node == null) {
            return Optional.of(NodeSelector.ALL);
        }
        return labelMap(node, path, "(matchLabels), such as {node-role.kubernetes.io/worker: \"\"}")
                .map(NodeSelector::new);
    }

    /** The labels of a node, a mapping of label keys to values in document order; none when {@code node} is null. */
    public Optional<Map<String, String>> labels(ConfigNode node, String path) {
        if (node == null) {
            return Optional.of(Map.of());
        }
        return labelMap(node, path, "such as {rack: r1}");
    }

    /**
     * Equality requirements as text, {@code key=value} (or {@code key==value}), comma separated; a selector of every
     * node when {@code node} is null. Problems are reported at {@code path}, the text's own place.
     */
    public Optional<NodeSelector> equalities(ConfigNode node, String path) {
        if (node == null) {
            return Optional.of(NodeSelector.ALL);
        }
        if (!node.isTextual()) {
            problems.add(path, "must be text key=value (comma separated for more labels), such as type=compute; not "
                    + describe(node));
            return Optional.empty();
        }
        Map<String, String> labels = new LinkedHashMap<>();
        boolean valid = true;
        for (String requirement : node.asText().split(",", -1)) {
            Matcher m = EQUALITY.matcher(requirement);
            if (!m.matches()) {
                problems.add(path, "'" + requirement.strip() + "' is not a requirement key=value; only equality "
                        + "requirements are supported (no !=, in, notin or exists), such as type=compute");
                valid = false;
                continue;
            }
            String key = m.group(1);
            String value = m.group(2);
            if (!labelKey(key, path) || !labelValue(value, path)) {
                valid = false;
            } else if (labels.containsKey(key) && !labels.get(key).equals(value)) {
                problems.add(path, "requires label " + key + " twice, with different values, so it matches no node; "
                        + "give each label once");
                valid = false;
            } else {
                labels.put(key, value);
            }
        }
        return valid ? Optional.of(new NodeSelector(labels)) : Optional.empty();
    }

    /** Whether {@code key} is a label key; records what to write instead at {@code path} if not. */
    public boolean labelKey(String key, String path) {
        Optional<String> problem = Labels.keyProblem(key);
        problem.ifPresent(message -> problems.add(path, message));
        return problem.isEmpty();
    }

    private boolean labelValue(String value, String path) {
        Optional<String> problem = Labels.valueProblem(value);
        problem.ifPresent(message -> problems.add(path, message));
        return problem.isEmpty();
    }

    private Optional<Map<String, String>> labelMap(ConfigNode node, String path, String example) {
        if (!node.isObject()) {
            problems.add(path, "must be a mapping of label keys to values " + example + ", not " + describe(node));
            return Optional.empty();
        }
        Map<String, String> labels = new LinkedHashMap<>();
        boolean valid = true;
        for (Map.Entry<String, ConfigNode> entry : node.properties()) {
            String at = child(path, entry.getKey());
            ConfigNode value = entry.getValue();
            valid &= labelKey(entry.getKey(), at);
            if (value.isNull() || value.isContainerNode()) {
                problems.add(at, value.isNull() ? "has no value; write \"\" for a label whose value is empty"
                        : "must be a label value, not " + describe(value));
                valid = false;
            } else if (labelValue(value.asText(), at)) {
                labels.put(entry.getKey(), value.asText());
            } else {
                valid = false;
            }
        }
        return valid ? Optional.of(labels) : Optional.empty();
    }
}
