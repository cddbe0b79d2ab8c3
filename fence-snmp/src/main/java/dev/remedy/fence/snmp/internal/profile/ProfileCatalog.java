package dev.remedy.fence.snmp.internal.profile;

import dev.remedy.config.profiles.Catalog;
import java.util.List;

/**
 * The SNMP device profiles shipped in the jar ({@link #builtIn()}); a user's file goes on top with
 * {@link Catalog#with} (a user profile with a built-in's name replaces it).
 */
public final class ProfileCatalog {

    /** The files shipped in the jar, each {@code dev/remedy/fence/snmp/profiles/<name>.yaml}. */
    public static final List<String> BUILT_IN = List.of("apc", "eaton-epdu", "raritan", "if-mib");

    private static final Catalog<Profile> SHIPPED = Catalog.builtIn(ProfileCatalog.class,
            "/dev/remedy/fence/snmp/profiles", BUILT_IN, new ProfileReader());

    private ProfileCatalog() {
    }

    /**
     * The profiles shipped in the jar; {@link Catalog#read} reads a user's file, in which a choice may name
     * built-in profiles. Immutable and thread-safe.
     */
    public static Catalog<Profile> builtIn() {
        return SHIPPED;
    }
}
