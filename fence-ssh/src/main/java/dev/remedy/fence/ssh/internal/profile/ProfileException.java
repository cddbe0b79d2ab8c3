package dev.remedy.fence.ssh.internal.profile;

import dev.remedy.config.ConfigFileException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;

/**
 * A file of device profiles that cannot be used: every problem found in it, each with the file, where in it
 * ({@code profiles[0].status.off}) and what to do. No message quotes a value that could be a secret.
 */
public final class ProfileException extends ConfigFileException {

    /** An exception listing {@code issues} (at least one), each naming its file. */
    public ProfileException(List<ConfigProblem> issues) {
        super(listing("invalid device profiles", issues), issues, null);
    }
}
