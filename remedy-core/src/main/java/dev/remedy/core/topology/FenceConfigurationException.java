package dev.remedy.core.topology;

import dev.remedy.config.ConfigFileException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;

/**
 * Thrown when a fence configuration is refused, or cannot give a node its plan. Carries every
 * {@link ConfigProblem} found, not only the first; the message lists them one per line
 * ({@code file:path: message}) and never contains a secret value.
 */
public class FenceConfigurationException extends ConfigFileException {

    /** An exception listing {@code issues} (at least one). */
    public FenceConfigurationException(List<ConfigProblem> issues) {
        this(issues, null);
    }

    /** An exception listing {@code issues} (at least one), caused by {@code cause}. */
    public FenceConfigurationException(List<ConfigProblem> issues, Throwable cause) {
        super(listing("invalid fence configuration", issues), issues, cause);
    }
}
