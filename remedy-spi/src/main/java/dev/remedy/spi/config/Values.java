package dev.remedy.spi.config;

import java.time.Duration;
import java.util.Locale;

/** Parsers for parameter text; each throws {@link IllegalArgumentException} with a message fit for a user. */
final class Values {

    private Values() {
    }

    static int parseInteger(String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number", e);
        }
    }

    static boolean parseBoolean(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new IllegalArgumentException("'" + text + "' is not " + ParameterType.BOOLEAN.expected());
        };
    }

    static Duration parseDuration(String text) {
        return Durations.parse(text, ParameterType.MAX_DURATION);
    }
}
