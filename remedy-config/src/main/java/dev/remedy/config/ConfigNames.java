package dev.remedy.config;

import dev.remedy.spi.config.DidYouMean;
import java.util.Collection;
import java.util.regex.Pattern;

/** Text helpers for configuration issues: document paths, "did you mean" suggestions and node kinds. */
public final class ConfigNames {

    private static final Pattern SIMPLE_KEY = Pattern.compile("[A-Za-z0-9_-]+");

    private ConfigNames() {
    }

    /** The path of {@code key} under {@code path}: {@code a.b}, or {@code a["x.y/z"]} for other characters. */
    public static String child(String path, String key) {
        if (SIMPLE_KEY.matcher(key).matches()) {
            return path.isEmpty() ? key : path + "." + key;
        }
        return path + "[\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
    }

    /** The path of element {@code index} of the list at {@code path}. */
    public static String index(String path, int index) {
        return path + "[" + index + "]";
    }

    /** {@code "; did you mean 'x'?"} for the nearest candidate, if it is near enough, or the empty string. */
    public static String suggestion(String given, Collection<String> candidates) {
        return DidYouMean.nearest(given, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
    }

    /**
     * {@code "; did you mean 'x'? label: a, b"} when a candidate is near {@code given}, else {@code "; label: a, b"}.
     */
    public static String hint(String given, Collection<String> candidates, String label) {
        String near = suggestion(given, candidates);
        return near + (near.isEmpty() ? "; " : " ") + label + ": " + list(candidates);
    }

    /** The names, comma separated, or {@code none}. */
    public static String list(Collection<String> names) {
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    /** What {@code node} is, for messages: {@code a mapping}, {@code a list}, {@code text}, … (never its value). */
    public static String describe(ConfigNode node) {
        if (node.isObject()) {
            return "a mapping";
        }
        if (node.isArray()) {
            return "a list";
        }
        if (node.isNull()) {
            return "nothing (null)";
        }
        if (node.isNumber()) {
            return "a number";
        }
        if (node.isBoolean()) {
            return "true/false";
        }
        return "text";
    }
}
