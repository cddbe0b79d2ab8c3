package dev.remedy.spi.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/** Finds the known name nearest to a misspelt one, for "did you mean" hints in error messages. */
public final class DidYouMean {

    private DidYouMean() {
    }

    /**
     * The candidate nearest to {@code given} by edit distance, if it is close enough to be a likely typo (at most
     * two edits, or a third of the length for long names).
     */
    public static Optional<String> nearest(String given, Collection<String> candidates) {
        return candidates.stream()
                .min(Comparator.comparingInt(c -> editDistance(given, c)))
                .filter(c -> editDistance(given, c) <= Math.max(2, given.length() / 3));
    }

    /** Levenshtein distance. */
    static int editDistance(String a, String b) {
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
