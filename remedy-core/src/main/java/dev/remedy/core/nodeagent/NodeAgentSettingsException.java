package dev.remedy.core.nodeagent;

import dev.remedy.config.ConfigFileException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;

/**
 * Thrown when node agent settings are refused. Carries every {@link ConfigProblem} found, each as
 * {@code source:key: message}.
 */
public class NodeAgentSettingsException extends ConfigFileException {

    /** An exception listing {@code issues} (at least one), caused by {@code cause} (may be null). */
    public NodeAgentSettingsException(List<ConfigProblem> issues, Throwable cause) {
        super(listing("invalid node agent settings", issues), issues, cause);
    }
}
