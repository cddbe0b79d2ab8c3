package dev.remedy.core.time;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;

/**
 * Time arithmetic that saturates instead of overflowing. A deadline too far away to represent is {@link #NEVER}
 * and a threshold too far back is {@link #BEGINNING}, so a huge duration given by a library user (configuration
 * files bound them when they are loaded) means "never" instead of an exception in the middle of a flow.
 */
public final class Deadlines {

    /** The latest instant remedy computes with: later than any real deadline; its distance to now fits in ms. */
    public static final Instant NEVER = Instant.parse("9999-12-31T23:59:59Z");
    /** The earliest instant remedy computes with. */
    public static final Instant BEGINNING = Instant.parse("0000-01-01T00:00:00Z");

    private Deadlines() {
    }

    /** {@code from + duration}, kept between {@link #BEGINNING} and {@link #NEVER}. */
    public static Instant plus(Instant from, Duration duration) {
        Instant result;
        try {
            result = from.plus(duration);
        } catch (DateTimeException | ArithmeticException e) {
            return duration.isNegative() ? BEGINNING : NEVER;
        }
        return clamp(result);
    }

    /** {@code from - duration}, kept between {@link #BEGINNING} and {@link #NEVER}. */
    public static Instant minus(Instant from, Duration duration) {
        Instant result;
        try {
            result = from.minus(duration);
        } catch (DateTimeException | ArithmeticException e) {
            return duration.isNegative() ? NEVER : BEGINNING;
        }
        return clamp(result);
    }

    /** {@code a + b}, or the longest duration there is if that overflows. */
    public static Duration sum(Duration a, Duration b) {
        try {
            return a.plus(b);
        } catch (ArithmeticException e) {
            return a.isNegative() ? Duration.ofSeconds(Long.MIN_VALUE) : Duration.ofSeconds(Long.MAX_VALUE);
        }
    }

    /** {@code duration} in milliseconds, {@link Long#MAX_VALUE} or {@link Long#MIN_VALUE} if it does not fit. */
    public static long millis(Duration duration) {
        try {
            return duration.toMillis();
        } catch (ArithmeticException e) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static Instant clamp(Instant instant) {
        return instant.isAfter(NEVER) ? NEVER : instant.isBefore(BEGINNING) ? BEGINNING : instant;
    }
}
