package dev.remedy.core.topology;

import java.util.Collection;
import java.util.Comparator;
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
        return candidates.stream()
                .min(Comparator.comparingInt(c -> editDistance(given, c)))
                .filter(c -> editDistance(given, c) <= Math.max(2, given.length() / 3))
                .map(c -> "; did you mean '" + c + "'?")
                .orElse("");
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

    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
