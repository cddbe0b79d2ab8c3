package dev.remedy.core.policy;

import dev.remedy.config.ConfigFileException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;

/**
 * Thrown when a policy file is refused. Carries every {@link ConfigProblem} found, not only the first; the
 * message lists them one per line as {@code file:path: message}.
 */
public class PolicyConfigurationException extends ConfigFileException {

    /** An exception listing {@code issues} (at least one). */
    public PolicyConfigurationException(List<ConfigProblem> issues) {
        this(issues, null);
    }

    /** An exception listing {@code issues} (at least one), caused by {@code cause}. */
    public PolicyConfigurationException(List<ConfigProblem> issues, Throwable cause) {
        super(listing("invalid policies", issues), issues, cause);
    }
}
