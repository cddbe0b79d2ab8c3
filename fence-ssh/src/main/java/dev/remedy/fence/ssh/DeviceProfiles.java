package dev.remedy.fence.ssh;

import dev.remedy.config.ConfigFileException;
import dev.remedy.fence.ssh.internal.profile.DeviceProfile;
import dev.remedy.fence.ssh.internal.profile.ProfileCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Files of device profiles, the YAML that {@code profile_file} names: {@link #check} reads one as the SSH agents
 * do, bounded as every remedy configuration file is, and reports every problem at once (the {@code remedy check}
 * command uses it).
 */
public final class DeviceProfiles {

    private DeviceProfiles() {
    }

    /**
     * The names of the profiles in {@code file}, in file order. Blocks on file I/O; thread-safe.
     *
     * @throws ConfigFileException listing every problem, each with the file and its path
     */
    public static List<String> check(Path file) {
        Objects.requireNonNull(file, "file");
        return ProfileCatalog.builtIn().read(file).stream().map(DeviceProfile::name).toList();
    }
}
