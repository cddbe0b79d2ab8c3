package dev.remedy.spi.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations the way remedy accepts them everywhere: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h},
 * {@code 1d}, a bare number of seconds ({@code 20}, as the fence agents take it), or ISO-8601 ({@code PT30S}).
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
        String trimmed = text.trim();
        Duration parsed;
        if (trimmed.regionMatches(true, 0, "P", 0, 1)) {
            try {
                parsed = Duration.parse(trimmed);
            } catch (DateTimeParseException e) {
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
                throw new IllegalArgumentException("'" + text + "' is too long a duration");
            }
            parsed = Duration.ofMillis(Math.round(millis));
        }
        if (parsed.isNegative()) {
            throw new IllegalArgumentException("'" + text + "' is negative; a duration must be zero or more");
        }
        return parsed;
    }
}
