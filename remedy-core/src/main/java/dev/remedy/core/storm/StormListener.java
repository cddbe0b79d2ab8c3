package dev.remedy.core.storm;

/**
 * Receives {@link StormSignal}s from a {@link StormGuard}, on the thread that caused them, after the guard's lock
 * was released. An exception is logged and ignored: it never changes a decision.
 */
@FunctionalInterface
public interface StormListener {

    /** Ignores every signal. */
    StormListener NONE = signal -> { };

    /** Handles one signal. */
    void onSignal(StormSignal signal);
}
