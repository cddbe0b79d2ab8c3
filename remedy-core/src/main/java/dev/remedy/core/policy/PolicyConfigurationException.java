package dev.remedy.core.policy;

import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.RemedyException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown when a policy file is refused. Carries every {@link ConfigProblem} found, not only the first; the
 * message lists them one per line as {@code file:path: message}.
 */
public class PolicyConfigurationException extends RemedyException {

    private final List<ConfigProblem> issues;

    /** An exception listing {@code issues} (at least one). */
    public PolicyConfigurationException(List<ConfigProblem> issues) {
        this(issues, null);
    }

    /** An exception listing {@code issues} (at least one), caused by {@code cause}. */
    public PolicyConfigurationException(List<ConfigProblem> issues, Throwable cause) {
        super(message(issues), cause);
        this.issues = List.copyOf(issues);
    }

    private static String message(List<ConfigProblem> issues) {
        if (issues.isEmpty()) {
            throw new IllegalArgumentException("a refused policy file has at least one issue");
        }
        return "invalid policies (" + issues.size() + (issues.size() == 1 ? " problem):" : " problems):")
                + issues.stream().map(issue -> "\n  " + issue).collect(Collectors.joining());
    }

    /** Every problem found, in document order. */
    public List<ConfigProblem> issues() {
        return issues;
    }
}
