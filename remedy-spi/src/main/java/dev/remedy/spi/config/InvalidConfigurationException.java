package dev.remedy.spi.config;

import dev.remedy.spi.RemedyException;
import java.util.List;
import java.util.stream.Collectors;

/** Thrown when a configuration has problems; lists all of them, never a secret value. */
public class InvalidConfigurationException extends RemedyException {

    private final String agentType;
    private final List<ConfigProblem> problems;

    /** An exception for the given agent type and (non-empty) problems. */
    public InvalidConfigurationException(String agentType, List<ConfigProblem> problems) {
        super(message(agentType, problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an invalid configuration has at least one problem");
        }
        this.agentType = agentType;
        this.problems = List.copyOf(problems);
    }

    private static String message(String agentType, List<ConfigProblem> problems) {
        return "invalid configuration for agent '" + agentType + "' (" + problems.size()
                + (problems.size() == 1 ? " problem): " : " problems): ")
                + problems.stream().map(ConfigProblem::toString).collect(Collectors.joining(" | "));
    }

    /** The agent type whose configuration was refused. */
    public String agentType() {
        return agentType;
    }

    /** Every problem found. */
    public List<ConfigProblem> problems() {
        return problems;
    }
}
