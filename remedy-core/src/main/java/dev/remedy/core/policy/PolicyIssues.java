package dev.remedy.core.policy;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;

import dev.remedy.config.ConfigNode;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The problems found in one policy document, and the checks both policy formats share: keys, text, durations,
 * escalation timeouts, condition statuses and label syntax. Every check records its problem and returns empty,
 * so that reading goes on and every problem is reported at once.
 */
final class PolicyIssues {

    /** Condition statuses Kubernetes reports. */
    static final List<String> STATUSES = List.of("True", "False", "Unknown");

    private static final Pattern LABEL_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final String DURATION_FORMS = "such as 30s, 5m, 1h or PT5M";

    private final String source;
    private final List<ConfigProblem> issues = new ArrayList<>();

    PolicyIssues(String source) {
        this.source = source;
    }

    String source() {
        return source;
    }

    void add(String path, String message) {
        issues.add(ConfigProblem.in(source, path, message));
    }

    boolean isEmpty() {
        return issues.isEmpty();
    }

    /** The exception listing every problem. */
    PolicyConfigurationException exception() {
        return new PolicyConfigurationException(issues);
    }

    /** Reports each key of {@code node} that is not allowed. */
    void checkKeys(ConfigNode node, String path, Collection<String> allowed) {
        checkKeys(node, path, allowed::contains, allowed);
    }

    /** Reports each key of {@code node} that {@code allowed} refuses; {@code known} feeds the hint. */
    void checkKeys(ConfigNode node, String path, Predicate<String> allowed, Collection<String> known) {
        node.keys().forEach(key -> {
            if (!allowed.test(key)) {
                add(child(path, key), "is not a known key" + hint(key, known, "allowed here"));
            }
        });
    }

    /** A mapping, or a problem: missing ({@code required}) or not a mapping. */
    Optional<ConfigNode> mapping(ConfigNode node, String path, boolean required, String what) {
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

    /** A non-empty list, or a problem: missing, not a list, or empty. */
    Optional<List<ConfigNode>> list(ConfigNode node, String path, String what) {
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

    /** Non-blank text, or a problem: missing or not text. */
    Optional<String> text(ConfigNode node, String path, String what) {
        if (node == null) {
            add(path, "is missing; give " + what);
            return Optional.empty();
        }
        if (!node.isTextual() && !node.isNumber() || node.asText().isBlank()) {
            add(path, "must be non-blank text (" + what + "), not " + (node.isTextual() ? "blank text" : describe(node)));
            return Optional.empty();
        }
        return Optional.of(node.asText());
    }

    /** A duration, or a problem: missing ({@code what} says what to give), not a duration. */
    Optional<Duration> duration(ConfigNode node, String path, String what) {
        if (node == null) {
            add(path, "is missing; give " + what + " as a duration " + DURATION_FORMS);
            return Optional.empty();
        }
        if (!node.isTextual() && !node.isNumber()) {
            add(path, "must be a duration " + DURATION_FORMS + ", not " + describe(node));
            return Optional.empty();
        }
        try {
            return Optional.of(Durations.parse(node.asText()));
        } catch (IllegalArgumentException e) {
            add(path, e.getMessage() + "; give a duration " + DURATION_FORMS);
            return Optional.empty();
        }
    }

    /**
     * An escalation timeout of at least {@link PolicyLoader#MIN_ESCALATION_TIMEOUT}: a remedy needs time to act, and
     * a shorter timeout would cancel it before it could (medik8s Node Healthcheck refuses less than 60 s, too).
     */
    Optional<Duration> escalationTimeout(ConfigNode node, String path, String what) {
        return duration(node, path, what).filter(timeout -> {
            if (timeout.compareTo(PolicyLoader.MIN_ESCALATION_TIMEOUT) < 0) {
                add(path, "is " + show(timeout) + ", below the least escalation timeout of 60s: a remedy "
                        + "cancelled sooner has no time to act (medik8s refuses it, too); give 60s or more");
                return false;
            }
            return true;
        });
    }

    /** A condition status: {@code True}, {@code False}, {@code Unknown}, or a YAML boolean for the first two. */
    Optional<String> status(ConfigNode node, String path) {
        if (node == null) {
            add(path, "is missing; give the unhealthy status: True, False or Unknown");
            return Optional.empty();
        }
        if (node.isBoolean()) {
            return Optional.of(node.booleanValue() ? "True" : "False");
        }
        if (!node.isTextual() || !STATUSES.contains(node.asText())) {
            String given = node.isTextual() ? "'" + node.asText() + "'" : describe(node);
            add(path, "is " + given + ", not a condition status" + (node.isTextual() ? hint(node.asText(), STATUSES,
                    "statuses") : "; statuses: " + String.join(", ", STATUSES)) + " (as Kubernetes writes them)");
            return Optional.empty();
        }
        return Optional.of(node.asText());
    }

    /** Whether {@code key} is a Kubernetes label key ({@code prefix/name}); reports it if not. */
    boolean labelKey(String key, String path) {
        int slash = key.indexOf('/');
        String prefix = slash < 0 ? "" : key.substring(0, slash);
        String name = key.substring(slash + 1);
        boolean valid = LABEL_NAME.matcher(name).matches()
                && (slash < 0 || prefix.length() <= 253 && DNS_SUBDOMAIN.matcher(prefix).matches());
        if (!valid) {
            add(path, "'" + key + "' is not a label key: give an optional DNS prefix and a slash, then a name of up "
                    + "to 63 letters, digits, '-', '_' or '.' that starts and ends with a letter or digit, such as "
                    + "node-role.kubernetes.io/worker");
        }
        return valid;
    }

    /** Whether {@code value} is a Kubernetes label value (empty, or like a label name); reports it if not. */
    boolean labelValue(String value, String path) {
        boolean valid = value.isEmpty() || LABEL_NAME.matcher(value).matches();
        if (!valid) {
            add(path, "'" + value + "' is not a label value: give up to 63 letters, digits, '-', '_' or '.' that "
                    + "start and end with a letter or digit, or \"\"");
        }
        return valid;
    }

    /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}: the short form of {@code duration}. */
    static String show(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        if (seconds != 0 && seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds != 0 && seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
