package dev.remedy.spi;

import java.time.Duration;
import java.time.Instant;

/**
 * The one source of time in remedy: monotonic nanoseconds for deadlines and a wall-clock {@link Instant} for
 * records. Tests substitute a fake (see {@code dev.remedy.test.FakeTimeSource}).
 *
 * <p>{@link #nanoTime()} follows {@link System#nanoTime()} rules: only differences are meaningful and they must
 * be computed by subtraction, because the value may wrap around {@link Long#MAX_VALUE}.
 *
 * <p>Implementations are thread-safe.
 */
public interface TimeSource {

    /** A monotonic reading in nanoseconds; compare readings only by subtraction. */
    long nanoTime();

    /** The current wall-clock time. */
    Instant instant();

    /**
     * Waits for {@code duration} (a fake source may advance its clock instead).
     *
     * @throws InterruptedException if the thread is interrupted before or while waiting
     */
    void sleep(Duration duration) throws InterruptedException;

    /** The system clock: {@link System#nanoTime()}, {@link Instant#now()} and {@link Thread#sleep(long, int)}. */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }
}
