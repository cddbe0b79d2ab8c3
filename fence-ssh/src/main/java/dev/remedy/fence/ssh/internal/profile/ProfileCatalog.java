package dev.remedy.fence.ssh.internal.profile;

import dev.remedy.config.profiles.Catalog;
import java.util.List;

/**
 * The device profiles shipped in the jar ({@link #builtIn()}); a user's file goes on top with {@link Catalog#with}
 * (a user profile with a built-in's name replaces it).
 */
public final class ProfileCatalog {

    /** The profiles shipped in the jar, each in {@code dev/remedy/fence/ssh/profiles/<name>.yaml}. */
    public static final List<String> BUILT_IN = List.of("apc", "cisco-ios", "brocade-fos", "linux-node-agent",
            "linux-sysrq");

    private static final Catalog<DeviceProfile> SHIPPED = Catalog.builtIn(ProfileCatalog.class,
            "/dev/remedy/fence/ssh/profiles", BUILT_IN, new ProfileReader());

    private ProfileCatalog() {
    }

    /** The profiles shipped in the jar. Immutable and thread-safe. */
    public static Catalog<DeviceProfile> builtIn() {
        return SHIPPED;
    }
}
