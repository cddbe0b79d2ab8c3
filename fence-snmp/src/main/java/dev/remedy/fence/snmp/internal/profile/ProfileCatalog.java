package dev.remedy.fence.snmp.internal.profile;

import dev.remedy.config.ConfigDocuments;
import dev.remedy.config.ConfigNode;
import dev.remedy.config.DocumentException;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ConfigProblem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SNMP device profiles an agent can use: the ones shipped in the jar, with a user's file on top (a user profile
 * with a built-in's name replaces it). Immutable and thread-safe.
 */
public final class ProfileCatalog {

    /** The files shipped in the jar, each {@code dev/remedy/fence/snmp/profiles/<name>.yaml}. */
    public static final List<String> BUILT_IN = List.of("apc", "eaton-epdu", "raritan", "if-mib");

    private static final ProfileCatalog SHIPPED = loadBuiltIn();

    private final Map<String, Profile> profiles;

    private ProfileCatalog(Map<String, Profile> profiles) {
        this.profiles = Map.copyOf(profiles);
    }

    /** The profiles shipped in the jar. */
    public static ProfileCatalog builtIn() {
        return SHIPPED;
    }

    /**
     * This catalog with the profiles of a user's YAML file on top.
     *
     * @throws ProfileException if the file cannot be read or holds a bad profile
     */
    public ProfileCatalog with(Path file) {
        Map<String, Profile> all = new LinkedHashMap<>(profiles);
        read(file, profiles).forEach(profile -> all.put(profile.name(), profile));
        return new ProfileCatalog(all);
    }

    /**
     * The profiles of a user's YAML file, read as boundedly as every configuration file ({@link ConfigDocuments});
     * a choice in it may name built-in profiles.
     *
     * @throws ProfileException if the file cannot be read or holds a bad profile
     */
    public static List<Profile> read(Path file) {
        return read(file, SHIPPED.profiles);
    }

    private static List<Profile> read(Path file, Map<String, Profile> known) {
        String source = file.toString();
        ConfigNode root;
        try {
            root = ConfigDocuments.readYaml(file);
        } catch (DocumentException e) {
            throw new ProfileException(List.of(ConfigProblem.in(source, "", e.getMessage())));
        }
        return new ProfileReader().read(root, source, known);
    }

    /** The profile called {@code name}. */
    public Optional<Profile> find(String name) {
        return Optional.ofNullable(profiles.get(name));
    }

    /** Every profile name, sorted. */
    public List<String> names() {
        return profiles.keySet().stream().sorted().toList();
    }

    /** The names of the profiles of {@code kind}, sorted. */
    public List<String> names(FencingKind kind) {
        return profiles.values().stream().filter(p -> p.kind() == kind).map(Profile::name).sorted().toList();
    }

    private static ProfileCatalog loadBuiltIn() {
        Map<String, Profile> all = new LinkedHashMap<>();
        ProfileReader reader = new ProfileReader();
        for (String name : BUILT_IN) {
            String resource = "/dev/remedy/fence/snmp/profiles/" + name + ".yaml";
            try (InputStream in = ProfileCatalog.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the built-in profile " + resource + " is missing from the jar");
                }
                reader.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource, all)
                        .forEach(profile -> all.put(profile.name(), profile));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the built-in profile " + resource, e);
            }
        }
        return new ProfileCatalog(all);
    }
}
