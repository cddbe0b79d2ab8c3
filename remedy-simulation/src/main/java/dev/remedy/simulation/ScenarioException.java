package dev.remedy.simulation;

import dev.remedy.config.ConfigFileException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;

/**
 * Thrown when a scenario file is refused. Carries every problem found, each as {@code file:path: message}; the
 * message lists them, one per line after the first.
 */
public class ScenarioException extends ConfigFileException {

    /** An exception listing {@code issues} (at least one). */
    public ScenarioException(List<ConfigProblem> issues) {
        super(issues.size() == 1 ? "invalid scenario: " + issues.get(0)
                : listing("invalid scenario", issues), issues, null);
    }
}
