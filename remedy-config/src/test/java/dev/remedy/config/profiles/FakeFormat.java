package dev.remedy.config.profiles;

import static dev.remedy.config.ConfigNames.index;

import dev.remedy.config.ConfigFileException;
import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Profiles of a name, a kind and an optional {@code like}, which must name a known profile. */
final class FakeFormat implements ProfileFormat<FakeFormat.Fake> {

    record Fake(String name, FencingKind kind, Optional<String> like) implements CatalogProfile {
    }

    static final class Refused extends ConfigFileException {
        Refused(List<ConfigProblem> issues) {
            super(listing("invalid fake profiles", issues), issues, null);
        }
    }

    static final Catalog<Fake> SHIPPED = Catalog.builtIn(FakeFormat.class, "/dev/remedy/config/profiles/shipped",
            List.of("outlets", "ports"), new FakeFormat());

    @Override
    public List<Fake> read(ConfigNode root, String source, Map<String, Fake> known) {
        ConfigNode list = profiles(root, source, "pdu");
        ConfigProblems problems = new ConfigProblems(source);
        List<Fake> read = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            new Entry(list.get(i), index("profiles", i), problems).fake(known).ifPresent(read::add);
        }
        if (!problems.isEmpty()) {
            throw refused(problems.list());
        }
        return read;
    }

    @Override
    public Refused refused(List<ConfigProblem> problems) {
        return new Refused(problems);
    }

    private static final class Entry extends ProfileEntry {

        Entry(ConfigNode node, String where, ConfigProblems file) {
            super(node, where, file);
        }

        Optional<Fake> fake(Map<String, Fake> known) {
            problems.checkKeys(node, where, List.of("name", "kind", "like"));
            String name = name();
            Optional<String> kind = text(node, where, "kind", true);
            Optional<String> like = text(node, where, "like", false);
            like.filter(other -> !known.containsKey(other)).ifPresent(other -> problem(where + ".like", "'" + other
                    + "' is not known", "name a built-in profile"));
            return report(problems.isEmpty() ? kind.map(k -> new Fake(name,
                    FencingKind.valueOf(k.toUpperCase(Locale.ROOT)), like)) : Optional.empty());
        }
    }
}
