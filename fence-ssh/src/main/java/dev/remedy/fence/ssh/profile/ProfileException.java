package dev.remedy.fence.ssh.profile;

import java.util.List;

/** A profile file that cannot be used: every problem found in it, each with where it is and what to do. */
public final class ProfileException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The problems, one line each. */
    private final List<String> problems;

    /** A failure of {@code source} with its problems. */
    public ProfileException(String source, List<String> problems) {
        super("device profiles in " + source + " have " + problems.size() + " problem"
                + (problems.size() == 1 ? "" : "s") + ":\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** The problems, one line each. */
    public List<String> problems() {
        return problems;
    }
}
