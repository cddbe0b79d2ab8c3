package dev.remedy.core.policy;

import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The checks both policy formats share beyond the configuration toolkit's: escalation timeouts and condition
 * statuses. Each records its problem in the document's {@link ConfigProblems} and returns empty, so that reading
 * goes on and every problem is reported at once.
 */
final class PolicyChecks {

    /** Condition statuses Kubernetes reports. */
    private static final List<String> STATUSES = List.of("True", "False", "Unknown");

    private final ConfigProblems problems;

    PolicyChecks(ConfigProblems problems) {
        this.problems = problems;
    }

    /**
     * An escalation timeout of at least {@link PolicyLoader#MIN_ESCALATION_TIMEOUT}: a remedy needs time to act, and
     * a shorter timeout would cancel it before it could (medik8s Node Healthcheck refuses less than 60 s, too).
     */
    Optional<Duration> escalationTimeout(ConfigNode node, String path, String what) {
        return problems.duration(node, path, what).filter(timeout -> {
            if (timeout.compareTo(PolicyLoader.MIN_ESCALATION_TIMEOUT) < 0) {
                problems.add(path, "is " + show(timeout) + ", below the least escalation timeout of 60s: a remedy "
                        + "cancelled sooner has no time to act (medik8s refuses it, too); give 60s or more");
                return false;
            }
            return true;
        });
    }

    /** A condition status: {@code True}, {@code False}, {@code Unknown}, or a YAML boolean for the first two. */
    Optional<String> status(ConfigNode node, String path) {
        if (node == null) {
            problems.add(path, "is missing; give the unhealthy status: True, False or Unknown");
            return Optional.empty();
        }
        if (node.isBoolean()) {
            return Optional.of(node.booleanValue() ? "True" : "False");
        }
        if (!node.isTextual() || !STATUSES.contains(node.asText())) {
            String given = node.isTextual() ? "'" + node.asText() + "'" : describe(node);
            problems.add(path, "is " + given + ", not a condition status" + (node.isTextual() ? hint(node.asText(),
                    STATUSES, "statuses") : "; statuses: " + String.join(", ", STATUSES)) + " (as Kubernetes writes "
                    + "them)");
            return Optional.empty();
        }
        return Optional.of(node.asText());
    }

    /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}: the short form of {@code duration}. */
    private static String show(Duration duration) {
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
