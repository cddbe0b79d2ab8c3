package dev.remedy.core.policy;

import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.spi.config.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The checks both policy formats share beyond the configuration toolkit's: condition durations, escalation timeouts,
 * every other duration's limit, and condition statuses. Each records its problem in the document's
 * {@link ConfigProblems} and returns empty, so that reading goes on and every problem is reported at once.
 */
final class PolicyChecks {

    /** Condition statuses Kubernetes reports. */
    private static final List<String> STATUSES = List.of("True", "False", "Unknown");

    private final ConfigProblems problems;

    PolicyChecks(ConfigProblems problems) {
        this.problems = problems;
    }

    /** A duration of at most {@link PolicyLoader#MAX_DURATION}: no setting of a policy is longer than a week. */
    Optional<Duration> duration(ConfigNode node, String path, String what) {
        return problems.duration(node, path, what, PolicyLoader.MAX_DURATION);
    }

    /**
     * How long a condition must hold, at least {@link PolicyLoader#MIN_CONDITION_DURATION}: a node is NotReady for a
     * few seconds at every kubelet restart or network blip, and a shorter duration would fence it for that.
     */
    Optional<Duration> conditionDuration(ConfigNode node, String path, String what) {
        return duration(node, path, what).filter(duration -> {
            if (duration.compareTo(PolicyLoader.MIN_CONDITION_DURATION) < 0) {
                problems.add(path, "is " + Durations.format(duration) + ", under the least of "
                        + Durations.format(PolicyLoader.MIN_CONDITION_DURATION) + ": a node is NotReady for a few "
                        + "seconds at every kubelet restart or network blip, and a shorter duration fences a healthy "
                        + "node for it; give " + Durations.format(PolicyLoader.MIN_CONDITION_DURATION)
                        + " or more (300s is usual)");
                return false;
            }
            return true;
        });
    }

    /**
     * An escalation timeout of at least {@link PolicyLoader#MIN_ESCALATION_TIMEOUT}: a remedy needs time to act, and
     * a shorter timeout would cancel it before it could (medik8s Node Healthcheck refuses less than 60 s, too).
     */
    Optional<Duration> escalationTimeout(ConfigNode node, String path, String what) {
        return duration(node, path, what).filter(timeout -> {
            if (timeout.compareTo(PolicyLoader.MIN_ESCALATION_TIMEOUT) < 0) {
                problems.add(path, "is " + Durations.format(timeout) + ", below the least escalation timeout of 60s: "
                        + "a remedy cancelled sooner has no time to act (medik8s refuses it, too); give 60s or more");
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
}
