package dev.remedy.fence.snmp.internal.profile;

import dev.remedy.config.ConfigFileException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;

/**
 * A file of SNMP device profiles that cannot be used: every problem found in it, each with the file, where in it
 * ({@code profiles[0].status.off}) and what to do.
 */
public final class ProfileException extends ConfigFileException {

    /** An exception listing {@code issues} (at least one), each naming its file. */
    public ProfileException(List<ConfigProblem> issues) {
        super(listing("invalid SNMP device profiles", issues), issues, null);
    }
}
