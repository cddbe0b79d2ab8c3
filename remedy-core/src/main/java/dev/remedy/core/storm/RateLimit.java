package dev.remedy.core.storm;

import java.time.Duration;
import java.util.Objects;

/**
 * At most {@code count} events in any sliding {@code window}: an event at {@code t} counts until
 * {@code t + window} (exclusive).
 *
 * @param count  how many events a window may hold, at least 1
 * @param window how long the window is, above zero
 */
public record RateLimit(int count, Duration window) {

    /** Validates that both are positive. */
    public RateLimit {
        Objects.requireNonNull(window, "window");
        if (count < 1) {
            throw new IllegalArgumentException("a rate limit needs a count of at least 1, got " + count);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a rate limit needs a window above zero, got " + window);
        }
    }

    /** {@code count} events per {@code window}. */
    public static RateLimit of(int count, Duration window) {
        return new RateLimit(count, window);
    }

    @Override
    public String toString() {
        return count + " per " + window;
    }
}
