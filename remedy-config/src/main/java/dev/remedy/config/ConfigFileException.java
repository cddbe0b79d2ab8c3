package dev.remedy.config;

import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A configuration file refused: carries every {@link ConfigProblem} found in it, not only the first, each with
 * the file and its path. Each kind of file has its own subclass, whose message lists the problems; no message
 * contains a secret value.
 */
public abstract class ConfigFileException extends RemedyException {

    private final List<ConfigProblem> issues;

    /**
     * An exception with {@code message} (which lists {@code issues}), caused by {@code cause} (may be null).
     *
     * @throws IllegalArgumentException if {@code issues} is empty
     */
    protected ConfigFileException(String message, List<ConfigProblem> issues, Throwable cause) {
        super(message, cause);
        if (issues.isEmpty()) {
            throw new IllegalArgumentException("a refused configuration file has at least one problem");
        }
        this.issues = List.copyOf(issues);
    }

    /**
     * {@code title (N problems):}, then each problem on its own line, indented: the message of most subclasses.
     */
    protected static String listing(String title, List<ConfigProblem> issues) {
        return title + " (" + issues.size() + (issues.size() == 1 ? " problem):" : " problems):")
                + issues.stream().map(issue -> "\n  " + issue).collect(Collectors.joining());
    }

    /** Every problem found, in document order. */
    public List<ConfigProblem> issues() {
        return issues;
    }
}
