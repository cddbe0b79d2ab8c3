package dev.remedy.config;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;

import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The problems found in one configuration document, and the checks every reader of one shares: the document
 * itself, keys, mappings, lists, text, single values, durations, whole numbers and flags. Each check records what
 * is wrong (with the document's source and the path) and returns empty or {@code false}, so that a reader goes on
 * and reports every problem of a file at once. Label keys, label values and selectors are read by a
 * {@link SelectorReader} over the same problems.
 *
 * <p>No message quotes a value that could be a secret: checks describe what they found ({@code a mapping},
 * {@code a list}, …), and quote text only where it was expected to be a duration or a name.
 *
 * <p>One instance reads one document, on one thread.
 */
public final class ConfigProblems {

    private static final String DURATION_FORMS = "such as 30s, 5m, 1h or PT5M";
    private static final String UNKNOWN_KEY = "is not a known key";
    private static final String KEYS_LABEL = "allowed here";

    private final String source;
    private final String unknownKey;
    private final String keysLabel;
    private final List<ConfigProblem> problems = new ArrayList<>();

    /**
     * No problems yet, in the document {@code source} (a file path or a source name); an unknown key {@code is not
     * a known key; did you mean …? allowed here: …}.
     */
    public ConfigProblems(String source) {
        this(source, UNKNOWN_KEY, KEYS_LABEL);
    }

    /**
     * No problems yet, in the document {@code source}, of a format with its own words for an unknown key:
     * {@code unknownKey}, a "did you mean", then {@code keysLabel} and the keys, as in {@code is not a key here; did
     * you mean 'run_for'? the keys are: …}.
     */
    public ConfigProblems(String source, String unknownKey, String keysLabel) {
        this.source = Objects.requireNonNull(source, "source");
        this.unknownKey = Objects.requireNonNull(unknownKey, "unknownKey");
        this.keysLabel = Objects.requireNonNull(keysLabel, "keysLabel");
    }

    /** The file (or source name) the problems are in. */
    public String source() {
        return source;
    }

    /** Records that the value at {@code path} is wrong: {@code message} says how and what to do. */
    public void add(String path, String message) {
        problems.add(ConfigProblem.in(source, path, message));
    }

    /** Records {@code problem}, found elsewhere (an agent's, {@link ConfigProblem#at moved} into this document). */
    public void add(ConfigProblem problem) {
        problems.add(Objects.requireNonNull(problem, "problem"));
    }

    /** Whether no problem was found. */
    public boolean isEmpty() {
        return problems.isEmpty();
    }

    /** Every problem found, in the order found. */
    public List<ConfigProblem> list() {
        return List.copyOf(problems);
    }

    // ------------------------------------------------------------------------------------------------- structure

    /**
     * The root of a document, if it is a mapping; else a problem at the empty path.
     *
     * @param give     what an empty document should give, as in {@code templates, topologies and nodes}
     * @param contents what the mapping holds, as in {@code the keys templates, topologies, nodes}
     */
    public Optional<ConfigNode> document(ConfigNode root, String give, String contents) {
        if (root.isMissingNode() || root.isNull()) {
            add("", "the document is empty; give " + give);
            return Optional.empty();
        }
        if (!root.isObject()) {
            add("", "the document must be a mapping with " + contents + ", not " + describe(root));
            return Optional.empty();
        }
        return Optional.of(root);
    }

    /** Reports each key of {@code node} that is not {@code allowed}, with the nearest allowed one. */
    public void checkKeys(ConfigNode node, String path, Collection<String> allowed) {
        checkKeys(node, path, allowed::contains, allowed);
    }

    /** Reports each key of {@code node} that {@code allowed} refuses; {@code known} lists the keys in the hint. */
    public void checkKeys(ConfigNode node, String path, Predicate<String> allowed, Collection<String> known) {
        for (String key : node.keys()) {
            if (!allowed.test(key)) {
                add(child(path, key), unknownKey + hint(key, known, keysLabel));
            }
        }
    }

    /**
     * A mapping with the {@code allowed} keys only (each other key reported), or a problem: {@code must be a mapping
     * SHAPE, not …}, where {@code shape} is as in {@code with name, selector and steps} or {@code {type, status}}.
     */
    public Optional<ConfigNode> mappingWith(ConfigNode node, String path, String shape, Collection<String> allowed) {
        if (!node.isObject()) {
            add(path, "must be a mapping " + shape + ", not " + describe(node));
            return Optional.empty();
        }
        checkKeys(node, path, allowed);
        return Optional.of(node);
    }

    /** A mapping, or a problem: missing (if {@code required}) or not a mapping. {@code what} says what it holds. */
    public Optional<ConfigNode> mapping(ConfigNode node, String path, boolean required, String what) {
        if (node == null) {
            if (required) {
                add(path, "is missing; give " + what);
            }
            return Optional.empty();
        }
        if (!node.isObject()) {
            add(path, "must be a mapping (" + what + "), not " + describe(node));
            return Optional.empty();
        }
        return Optional.of(node);
    }

    /** The elements of a non-empty list, or a problem: missing, empty or not a list. */
    public Optional<List<ConfigNode>> list(ConfigNode node, String path, String what) {
        if (node == null || node.isArray() && node.isEmpty()) {
            add(path, (node == null ? "is missing" : "is empty") + "; give " + what);
            return Optional.empty();
        }
        if (!node.isArray()) {
            add(path, "must be a list (" + what + "), not " + describe(node));
            return Optional.empty();
        }
        return Optional.of(node.elements());
    }

    // --------------------------------------------------------------------------------------------------- scalars

    /** Non-blank text (a number is read as text), or a problem: missing, blank or not text. */
    public Optional<String> text(ConfigNode node, String path, String what) {
        if (node == null) {
            add(path, "is missing; give " + what);
            return Optional.empty();
        }
        if (!node.isTextual() && !node.isNumber() || node.asText().isBlank()) {
            add(path, "must be non-blank text, not " + (node.isTextual() ? "blank text" : describe(node)) + "; give "
                    + what);
            return Optional.empty();
        }
        return Optional.of(node.asText());
    }

    /**
     * A given single value as text ({@code 300}, {@code true}, {@code ""}), or a problem: null, a mapping or a list.
     * Nothing is quoted: the value may be a secret.
     */
    public Optional<String> scalar(ConfigNode node, String path) {
        if (node.isNull()) {
            add(path, "has no value; give one (write \"\" for empty text)");
            return Optional.empty();
        }
        if (node.isContainerNode()) {
            add(path, "must be a single value (text, a number or true/false), not " + describe(node));
            return Optional.empty();
        }
        return Optional.of(node.asText());
    }

    /**
     * A duration as {@link Durations} reads it ({@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, {@code 1d}, a
     * number of seconds, or ISO-8601) of at most {@code max}, or a problem: missing ({@code what} says what to give),
     * not text or a number, not a duration, negative, longer than {@code max}. Every duration in a configuration has
     * a limit, the longest a real setting would be, so that no deadline computed from it can overflow.
     */
    public Optional<Duration> duration(ConfigNode node, String path, String what, Duration max) {
        String give = "a duration of at most " + Durations.format(max) + ", " + DURATION_FORMS;
        if (node == null) {
            add(path, "is missing; give " + what + " as " + give);
            return Optional.empty();
        }
        if (!node.isTextual() && !node.isNumber()) {
            add(path, "must be " + give + ", not " + describe(node));
            return Optional.empty();
        }
        try {
            return Optional.of(Durations.parse(node.asText(), max));
        } catch (IllegalArgumentException e) {
            add(path, e.getMessage() + "; give " + give);
            return Optional.empty();
        }
    }

    /**
     * A whole number that fits an {@code int}, or a problem that says which numbers fit: {@code range}, as in
     * {@code 0 or more}. The range itself is the caller's to check.
     */
    public Optional<Integer> wholeNumber(ConfigNode node, String path, String range) {
        if (node.isIntegralNumber() && !node.canConvertToInt()) {
            add(path, "is " + node.asText() + ", too large; give a whole number, " + range);
            return Optional.empty();
        }
        if (!node.isIntegralNumber()) {
            add(path, "must be a whole number, " + range + ", not " + describe(node));
            return Optional.empty();
        }
        return Optional.of(node.intValue());
    }

    /** {@code true} or {@code false}, or a problem. */
    public Optional<Boolean> flag(ConfigNode node, String path) {
        if (!node.isBoolean()) {
            add(path, "must be true or false, not " + describe(node));
            return Optional.empty();
        }
        return Optional.of(node.booleanValue());
    }
}
