package dev.remedy.simulation;

import dev.remedy.core.topology.ConfigurationIssue;
import dev.remedy.spi.RemedyException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown when a scenario file is refused. Carries every problem found, each as {@code file:path: message}; the
 * message lists them, one per line after the first.
 */
public class ScenarioException extends RemedyException {

    private final List<ConfigurationIssue> issues;

    /** An exception listing {@code issues} (at least one). */
    public ScenarioException(List<ConfigurationIssue> issues) {
        super(message(issues));
        this.issues = List.copyOf(issues);
    }

    private static String message(List<ConfigurationIssue> issues) {
        if (issues.isEmpty()) {
            throw new IllegalArgumentException("a refused scenario has at least one issue");
        }
        if (issues.size() == 1) {
            return "invalid scenario: " + issues.get(0);
        }
        return "invalid scenario (" + issues.size() + " problems):"
                + issues.stream().map(issue -> "\n  " + issue).collect(Collectors.joining());
    }

    /** Every problem, in document order. */
    public List<ConfigurationIssue> issues() {
        return issues;
    }
}
