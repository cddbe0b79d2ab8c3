package dev.remedy.fence.snmp;

import dev.remedy.config.ConfigFileException;
import dev.remedy.fence.snmp.internal.profile.Profile;
import dev.remedy.fence.snmp.internal.profile.ProfileCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Files of SNMP device profiles, the YAML that {@code profile_file} names: {@link #check} reads one as the SNMP
 * agents do, bounded as every remedy configuration file is, and reports every problem at once.
 */
public final class SnmpProfiles {

    private SnmpProfiles() {
    }

    /**
     * The names of the profiles in {@code file}, in file order (tables first, then choices). Blocks on file I/O;
     * thread-safe.
     *
     * @throws ConfigFileException listing every problem, each with the file and its path
     */
    public static List<String> check(Path file) {
        Objects.requireNonNull(file, "file");
        return ProfileCatalog.builtIn().read(file).stream().map(Profile::name).toList();
    }

    /** The names of the profiles shipped in the jar, sorted. */
    public static List<String> builtIn() {
        return ProfileCatalog.builtIn().names();
    }
}
