package dev.remedy.spi.discovery;

/**
 * Stands in for an exception whose text held a secret: its message is the original's {@code toString()} (class name
 * and message) with every secret masked, its cause and suppressed exceptions are scrubbed the same way, and its
 * stack trace is the original's. Made by {@link SecretScrubber}.
 */
final class ScrubbedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ScrubbedException(String message, Throwable cause) {
        super(message, cause);
    }
}
