package dev.remedy.spi.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The type of a parameter value, which decides how its text is parsed and checked. */
public enum ParameterType {
    /** Any text. */
    STRING("text"),
    /** A whole number. */
    INTEGER("a whole number, e.g. 623"),
    /** {@code true/false}, {@code yes/no}, {@code on/off} or {@code 1/0}, as the fence agents accept. */
    BOOLEAN("true or false"),
    /**
     * {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, a number of seconds, or ISO-8601 such as {@code PT30S};
     * at most {@link #MAX_DURATION}.
     */
    DURATION("a duration of at most 1h, e.g. 30s, 500ms, 2m or ISO-8601 PT30S"),
    /** One of the descriptor's allowed values. */
    CHOICE("one of the allowed values");

    /**
     * The longest value of a {@link #DURATION} parameter, one hour: an agent waits within one action, and no device
     * takes an hour to log in or to switch power. A longer value is a mistake, and would overflow deadlines.
     */
    public static final Duration MAX_DURATION = Duration.ofHours(1);

    private final String expected;

    ParameterType(String expected) {
        this.expected = expected;
    }

    /** What a valid value looks like, for error messages. */
    public String expected() {
        return expected;
    }

    /** Why {@code text} is not a valid value of this type (with these choices), or empty if it is valid. */
    Optional<String> problemWith(String text, List<String> allowedValues) {
        try {
            switch (this) {
                case INTEGER -> Values.parseInteger(text);
                case BOOLEAN -> Values.parseBoolean(text);
                case DURATION -> Values.parseDuration(text);
                case CHOICE -> {
                    if (!allowedValues.contains(text)) {
                        return Optional.of("'" + text + "' is not one of " + allowedValues);
                    }
                }
                case STRING -> {
                    // any text is a string
                }
            }
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }
}
