package dev.remedy.config.profiles;

import dev.remedy.config.ConfigDocuments;
import dev.remedy.config.ConfigFileException;
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
 * The device profiles an agent can use: the ones shipped in its jar, with a user's file on top (a user profile with
 * a built-in's name replaces it). Immutable and thread-safe.
 *
 * @param <P> the module's profile type
 */
public final class Catalog<P extends CatalogProfile> {

    private final ProfileFormat<P> format;
    private final Map<String, P> profiles;

    private Catalog(ProfileFormat<P> format, Map<String, P> profiles) {
        this.format = format;
        this.profiles = Map.copyOf(profiles);
    }

    /**
     * The profiles shipped in the jar of {@code owner}, each the resource {@code <folder>/<name>.yaml}, read in the
     * order of {@code names}: a later one may name an earlier one.
     *
     * @throws IllegalStateException if one is missing from the jar
     * @throws UncheckedIOException if one cannot be read
     * @throws ConfigFileException (the format's) if one holds a bad profile
     */
    public static <P extends CatalogProfile> Catalog<P> builtIn(Class<?> owner, String folder, List<String> names,
            ProfileFormat<P> format) {
        Map<String, P> all = new LinkedHashMap<>();
        for (String name : names) {
            String resource = folder + "/" + name + ".yaml";
            try (InputStream in = owner.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the built-in profile " + resource + " is missing from the jar");
                }
                format.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource, all)
                        .forEach(profile -> all.put(profile.name(), profile));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the built-in profile " + resource, e);
            }
        }
        return new Catalog<>(format, all);
    }

    /**
     * This catalog with the profiles of a user's YAML file on top.
     *
     * @throws ConfigFileException (the format's) if the file cannot be read or holds a bad profile
     */
    public Catalog<P> with(Path file) {
        Map<String, P> all = new LinkedHashMap<>(profiles);
        read(file).forEach(profile -> all.put(profile.name(), profile));
        return new Catalog<>(format, all);
    }

    /**
     * The profiles of a user's YAML file, read as boundedly as every configuration file ({@link ConfigDocuments});
     * a profile in it may name one of this catalog's. Blocks on file I/O.
     *
     * @throws ConfigFileException (the format's) if the file cannot be read or holds a bad profile
     */
    public List<P> read(Path file) {
        String source = file.toString();
        ConfigNode root;
        try {
            root = ConfigDocuments.readYaml(file);
        } catch (DocumentException e) {
            throw format.refused(List.of(ConfigProblem.in(source, "", e.getMessage())));
        }
        return format.read(root, source, profiles);
    }

    /** The profile called {@code name}. */
    public Optional<P> find(String name) {
        return Optional.ofNullable(profiles.get(name));
    }

    /** Every profile name, sorted. */
    public List<String> names() {
        return profiles.keySet().stream().sorted().toList();
    }

    /** The names of the profiles of {@code kind}, sorted. */
    public List<String> names(FencingKind kind) {
        return profiles.values().stream().filter(p -> p.kind() == kind).map(CatalogProfile::name).sorted().toList();
    }
}
