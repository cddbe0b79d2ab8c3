package dev.remedy.core.topology;

import dev.remedy.spi.config.DidYouMean;
import java.util.Collection;
import java.util.regex.Pattern;

/** Text helpers for configuration issues: document paths and "did you mean" suggestions. */
final class Names {

    private static final Pattern SIMPLE_KEY = Pattern.compile("[A-Za-z0-9_-]+");

    private Names() {
    }

    /** The path of {@code key} under {@code path}: {@code a.b}, or {@code a["x.y/z"]} for other characters. */
    static String child(String path, String key) {
        if (SIMPLE_KEY.matcher(key).matches()) {
            return path.isEmpty() ? key : path + "." + key;
        }
        return path + "[\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
    }

    /** The path of element {@code index} of the list at {@code path}. */
    static String index(String path, int index) {
        return path + "[" + index + "]";
    }

    /** {@code "; did you mean 'x'?"} for the nearest candidate, if it is near enough, or the empty string. */
    static String suggestion(String given, Collection<String> candidates) {
        return DidYouMean.nearest(given, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
    }

    /**
     * {@code "; did you mean 'x'? label: a, b"} when a candidate is near {@code given}, else {@code "; label: a, b"}.
     */
    static String hint(String given, Collection<String> candidates, String label) {
        String near = suggestion(given, candidates);
        return near + (near.isEmpty() ? "; " : " ") + label + ": " + list(candidates);
    }

    /** The names, comma separated, or {@code none}. */
    static String list(Collection<String> names) {
        return names.isEmpty() ? "none" : String.join(", ", names);
    }
}
