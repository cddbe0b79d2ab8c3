package dev.remedy.spi.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations the way remedy accepts them everywhere: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h},
 * {@code 1d}, a bare number of seconds ({@code 20}, as the fence agents take it), or ISO-8601 ({@code PT30S}).
 * Every duration read from configuration has an upper bound ({@link #parse(String, Duration)}), so that no
 * deadline computed from it can overflow.
 */
public final class Durations {

    private static final Pattern SHORT_DURATION =
            Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

    private Durations() {
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException naming the text, if it is not a duration or is negative
     */
    public static Duration parse(String text) {
        return read(text, null);
    }

    /**
     * Parses {@code text} and checks that it is at most {@code max}, the longest the setting it is for may be.
     *
     * @throws IllegalArgumentException naming the text, if it is not a duration, is negative, or is longer than
     *                                  {@code max} ({@code 'P999999999999D' is longer than 7d})
     */
    public static Duration parse(String text, Duration max) {
        return read(text, Objects.requireNonNull(max, "max"));
    }

    private static Duration read(String text, Duration max) {
        String trimmed = text.trim();
        Duration parsed;
        if (trimmed.regionMatches(true, 0, "P", 0, 1)) {
            try {
                parsed = Duration.parse(trimmed);
            } catch (DateTimeParseException e) {
                if (e.getCause() instanceof ArithmeticException || e.getCause() instanceof NumberFormatException) {
                    throw tooLong(text, max);
                }
                throw new IllegalArgumentException("'" + text + "' is not a duration", e);
            }
        } else {
            Matcher m = SHORT_DURATION.matcher(trimmed);
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + text + "' is not a duration");
            }
            double amount = Double.parseDouble(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
            double millis = amount * switch (unit) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                case "h" -> 3_600_000;
                default -> 86_400_000;
            };
            if (millis > Long.MAX_VALUE / 2) {
                throw tooLong(text, max);
            }
            parsed = Duration.ofMillis(Math.round(millis));
        }
        if (parsed.isNegative()) {
            throw new IllegalArgumentException("'" + text + "' is negative; a duration must be zero or more");
        }
        if (max != null && parsed.compareTo(max) > 0) {
            throw tooLong(text, max);
        }
        return parsed;
    }

    private static IllegalArgumentException tooLong(String text, Duration max) {
        return new IllegalArgumentException("'" + text + "' is " + (max == null ? "too long a duration"
                : "longer than " + format(max)));
    }

    /**
     * The shortest exact form of {@code duration} that {@link #parse(String)} reads back: {@code 500ms}, {@code 30s},
     * {@code 5m}, {@code 2h}, {@code 7d}; {@code 0s} for zero. Nanoseconds below a millisecond are dropped.
     *
     * @throws IllegalArgumentException if {@code duration} is negative
     */
    public static String format(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a negative duration has no short form: " + duration);
        }
        long millis = duration.toMillis();
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        if (seconds != 0 && seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds != 0 && seconds % 3_600 == 0) {
            return seconds / 3_600 + "h";
        }
        if (seconds != 0 && seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
