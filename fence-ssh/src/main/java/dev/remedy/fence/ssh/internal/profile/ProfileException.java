package dev.remedy.fence.ssh.internal.profile;

import dev.remedy.spi.config.ConfigProblem;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A profile file that cannot be used: every problem found in it, each with the file, where in it, and what to do.
 */
public final class ProfileException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The problems, in the order found. */
    private final List<ConfigProblem> problems;

    /** A failure of {@code source} with its problems. */
    public ProfileException(String source, List<ConfigProblem> problems) {
        super("device profiles in " + source + " have " + problems.size() + " problem"
                + (problems.size() == 1 ? "" : "s") + ":\n  "
                + problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n  ")));
        this.problems = List.copyOf(problems);
    }

    /** The problems, in the order found: {@code file:path: message} each. */
    public List<ConfigProblem> problems() {
        return problems;
    }
}
