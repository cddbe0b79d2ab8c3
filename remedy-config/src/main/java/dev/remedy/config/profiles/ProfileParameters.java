package dev.remedy.config.profiles;

import dev.remedy.config.ConfigFileException;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.DidYouMean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * An agent's {@code profile} and {@code profile_file} parameters, resolved as its settings check them: the
 * built-in catalog with the user's {@code profile_file} on top, then the named profile, which must be of the
 * agent's kind. Immutable and thread-safe.
 *
 * @param <P> the module's profile type
 */
public final class ProfileParameters<P extends CatalogProfile> {

    private final Catalog<P> builtIn;
    private final String noun;
    private final Function<FencingKind, String> describe;
    private final Function<FencingKind, String> agentType;
    private final boolean listsByKind;

    /**
     * Resolves against {@code builtIn}.
     *
     * @param noun        what a profile is called in messages ({@code SNMP device profile})
     * @param describe    a kind in messages ({@code power (outlet)})
     * @param agentType   the agent type of a kind, for a profile of another kind than the agent's
     * @param listsByKind whether an unknown name is answered with the profiles of the agent's kind
     *                    ({@code the power (outlet) profiles are […]}) rather than all ({@code the profiles are […]})
     */
    public ProfileParameters(Catalog<P> builtIn, String noun, Function<FencingKind, String> describe,
            Function<FencingKind, String> agentType, boolean listsByKind) {
        this.builtIn = builtIn;
        this.noun = noun;
        this.describe = describe;
        this.agentType = agentType;
        this.listsByKind = listsByKind;
    }

    /**
     * The profile {@code config} names for an agent of {@code kind}; empty, with its problems added to
     * {@code problems}, if it cannot be resolved. Blocks on reading {@code profile_file}.
     */
    public Optional<P> resolve(AgentConfig config, FencingKind kind, List<ConfigProblem> problems) {
        Catalog<P> catalog = builtIn;
        Optional<String> file = text(config, "profile_file");
        if (file.isPresent()) {
            try {
                catalog = catalog.with(path(file.get()));
            } catch (ConfigFileException e) {
                e.issues().forEach(p -> problems.add(new ConfigProblem("profile_file", p.toString(), "fix "
                        + file.get())));
                return Optional.empty();
            }
        }
        String name = config.string("profile");
        Optional<P> found = catalog.find(name);
        if (found.isEmpty()) {
            List<String> names = listsByKind ? catalog.names(kind) : catalog.names();
            problems.add(new ConfigProblem("profile", "'" + name + "' is not a known " + noun,
                    DidYouMean.nearest(name, names).map(near -> "did you mean '" + near + "'? ").orElse("")
                            + "the " + (listsByKind ? describe.apply(kind) + " " : "") + "profiles are " + names
                            + (file.isEmpty() ? "; define your own in profile_file" : "")));
            return Optional.empty();
        }
        if (found.get().kind() != kind) {
            problems.add(new ConfigProblem("profile", "'" + name + "' is " + describe.apply(found.get().kind())
                    + ", not " + describe.apply(kind), "use the agent type " + agentType.apply(found.get().kind())
                    + " for it"));
            return Optional.empty();
        }
        return found;
    }

    /**
     * What {@code resolve} gives (a resolution as {@link #resolve}, with the agent's own checks after it), quietly:
     * empty if {@code profile} is not given or anything is wrong. No network I/O.
     */
    public static <T> Optional<T> quietly(AgentConfig config, Function<List<ConfigProblem>, Optional<T>> resolve) {
        if (text(config, "profile").isEmpty()) {
            return Optional.empty();
        }
        List<ConfigProblem> problems = new ArrayList<>();
        Optional<T> profile = resolve.apply(problems);
        return problems.isEmpty() ? profile : Optional.empty();
    }

    /**
     * The text of the parameter {@code name}, stripped, as profile parameters are read (and an agent's other
     * text parameters): empty if the agent does not declare it or it is blank.
     */
    public static Optional<String> text(AgentConfig config, String name) {
        boolean declared = config.parameters().stream().anyMatch(parameter -> parameter.name().equals(name));
        return declared ? config.text(name).map(String::strip).filter(text -> !text.isEmpty()) : Optional.empty();
    }

    /** A path as given, with a leading {@code ~/} meaning the user's home folder. */
    public static Path path(String text) {
        return Path.of(text.startsWith("~/") ? System.getProperty("user.home", "") + text.substring(1) : text);
    }
}
