package dev.remedy.testkit.simulation;

import dev.remedy.config.ConfigProblems;
import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;

/**
 * Thrown when a scenario file is refused. Carries every problem found, each as {@code file:path: message}; the
 * message lists them, one per line after the first.
 */
public class ScenarioException extends RemedyException {

    private final List<ConfigProblem> issues;

    /** An exception listing {@code issues} (at least one). */
    public ScenarioException(List<ConfigProblem> issues) {
        super(message(issues));
        this.issues = List.copyOf(issues);
    }

    private static String message(List<ConfigProblem> issues) {
        return issues.size() == 1 ? "invalid scenario: " + issues.get(0)
                : ConfigProblems.listing("invalid scenario", issues);
    }

    /** Every problem, in document order. */
    public List<ConfigProblem> issues() {
        return issues;
    }
}
