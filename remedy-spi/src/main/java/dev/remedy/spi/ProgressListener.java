package dev.remedy.spi;

/**
 * Receives the progress of a long action ("sending OFF", "waiting for OFF, 3 of 20 polls"), for a progress
 * line or a log. Called on the agent's thread; must return quickly. Exceptions it throws are logged and ignored.
 */
@FunctionalInterface
public interface ProgressListener {

    /** A listener that ignores every message. */
    ProgressListener NONE = message -> { };

    /** One progress message; never contains a secret. */
    void onProgress(String message);
}
