package dev.remedy.config.profiles;

import static dev.remedy.config.ConfigNames.child;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.spi.config.ConfigProblem;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of a {@code profiles} list, read field by field by a module's subclass: its problems go to its own
 * list, then ({@link #report}) to the file's, so that a reader can tell whether this entry is whole. Not
 * thread-safe: one per entry.
 */
public abstract class ProfileEntry {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");

    /** The entry. */
    protected final ConfigNode node;
    /** Its path in the file ({@code profiles[0]}). */
    protected final String where;
    /** Its own problems; an unknown key {@code is not a profile field}. */
    protected final ConfigProblems problems;
    private final ConfigProblems file;

    /** The entry {@code node} at {@code where}, whose problems go to {@code file}. */
    protected ProfileEntry(ConfigNode node, String where, ConfigProblems file) {
        this.node = node;
        this.where = where;
        this.file = file;
        this.problems = new ConfigProblems(file.source(), "is not a profile field", "the fields are");
    }

    /** Hands this entry's problems to the file's, then returns {@code read}. */
    protected final <T> T report(T read) {
        problems.list().forEach(file::add);
        return read;
    }

    /** The required {@code name}: lower-case letters, digits, {@code . _ -}; empty if missing. */
    protected final String name() {
        String name = text(node, where, "name", true).orElse("");
        if (!name.isEmpty() && !NAME.matcher(name).matches()) {
            problem(child(where, "name"), "'" + name + "' is not a profile name", "use lower-case letters, digits, "
                    + "'.', '_', '-'");
        }
        return name;
    }

    /** A single value as text; empty text counts as not given, which is a problem if {@code required}. */
    protected final Optional<String> text(ConfigNode parent, String parentPath, String field, boolean required) {
        ConfigNode value = parent.get(field);
        String path = child(parentPath, field);
        if (value == null || value.isNull() || !value.isContainerNode() && value.asText().isEmpty()) {
            if (required) {
                problem(path, "is missing", "see the built-in profiles for an example");
            }
            return Optional.empty();
        }
        return problems.scalar(value, path);
    }

    /** A problem of this entry at {@code path}. */
    protected final void problem(String path, String what, String hint) {
        problems.add(new ConfigProblem(problems.source(), path, what, hint));
    }
}
