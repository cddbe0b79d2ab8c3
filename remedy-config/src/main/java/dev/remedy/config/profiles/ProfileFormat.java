package dev.remedy.config.profiles;

import dev.remedy.config.ConfigDocuments;
import dev.remedy.config.ConfigFileException;
import dev.remedy.config.ConfigNode;
import dev.remedy.config.DocumentException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;
import java.util.Map;

/**
 * How an agent module reads its profiles: a document with a {@code profiles} list into profiles, refusing a bad one
 * with the module's own exception. Implementations are thread-safe.
 *
 * @param <P> the module's profile type
 */
public interface ProfileFormat<P extends CatalogProfile> {

    /**
     * Reads a parsed document; a profile in it may name one of {@code known} (the built-in ones) as well as one of
     * the same document.
     *
     * @param source names the document in messages (a file path or a resource)
     * @throws ConfigFileException (the one of {@link #refused}) listing every problem
     */
    List<P> read(ConfigNode root, String source, Map<String, P> known);

    /** The module's exception listing {@code problems} (at least one), each naming its file. */
    ConfigFileException refused(List<ConfigProblem> problems);

    /**
     * Parses {@code yaml}, then reads it as {@link #read(ConfigNode, String, Map)} does.
     *
     * @param source names the text in messages (a file path or a resource)
     * @throws ConfigFileException (the one of {@link #refused}) listing every problem
     */
    default List<P> read(String yaml, String source, Map<String, P> known) {
        ConfigNode root;
        try {
            root = ConfigDocuments.parseYaml(yaml);
        } catch (DocumentException e) {
            throw refused(List.of(ConfigProblem.in(source, "", "not valid YAML: " + e.getMessage())));
        }
        return read(root, source, known);
    }

    /**
     * The document's {@code profiles} list, which has at least one entry.
     *
     * @param example a built-in profile to point a user at
     * @throws ConfigFileException (the one of {@link #refused}) if there is no such list
     */
    default ConfigNode profiles(ConfigNode root, String source, String example) {
        ConfigNode list = root.get("profiles");
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw refused(List.of(ConfigProblem.in(source, "", "no 'profiles' list: write 'profiles:' followed by one "
                    + "entry per device (see the built-in " + example + " profile)")));
        }
        return list;
    }
}
