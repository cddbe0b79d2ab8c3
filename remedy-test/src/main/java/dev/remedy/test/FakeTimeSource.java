package dev.remedy.test;

import dev.remedy.spi.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to. {@link #sleep(Duration)} advances it instead of waiting, so code that
 * polls and backs off runs instantly and deterministically. Can start near {@link Long#MAX_VALUE} to prove that
 * deadline arithmetic survives the wrap-around of monotonic readings.
 *
 * <p>Thread-safe. With several threads sleeping, each sleep advances the shared clock.
 */
public final class FakeTimeSource implements TimeSource {

    /** The wall-clock start of a default fake clock. */
    public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");

    private final long startNanos;
    private final Instant startInstant;
    private final AtomicLong nanos;
    private final AtomicLong wallOffsetNanos = new AtomicLong();

    /** A clock at monotonic reading {@code startNanos} and wall time {@code startInstant}. */
    public FakeTimeSource(long startNanos, Instant startInstant) {
        this.startNanos = startNanos;
        this.startInstant = startInstant;
        this.nanos = new AtomicLong(startNanos);
    }

    /** A clock at reading 0 and {@link #DEFAULT_START}. */
    public FakeTimeSource() {
        this(0, DEFAULT_START);
    }

    /** A clock whose monotonic reading wraps past {@link Long#MAX_VALUE} after {@code headroom}. */
    public static FakeTimeSource nearOverflow(Duration headroom) {
        return new FakeTimeSource(Long.MAX_VALUE - headroom.toNanos(), DEFAULT_START);
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public Instant instant() {
        return startInstant.plusNanos(nanos.get() - startNanos + wallOffsetNanos.get());
    }

    /** Advances the clock by {@code duration} at once. */
    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before sleeping on the fake clock");
        }
        if (!duration.isNegative()) {
            advance(duration);
        }
    }

    /** Moves the clock forward. */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time only moves forward; was asked to advance by " + duration);
        }
        nanos.addAndGet(duration.toNanos());
    }

    /**
     * Jumps the wall clock (forwards or backwards, as NTP or an operator may) without moving the monotonic
     * reading: deadlines measured with {@link #nanoTime()} are unaffected, records stamped with {@link #instant()}
     * see the jump.
     */
    public void jumpWall(Duration jump) {
        wallOffsetNanos.addAndGet(jump.toNanos());
    }

    /** Time passed since the clock was created. */
    public Duration elapsed() {
        return Duration.ofNanos(nanos.get() - startNanos);
    }

    @Override
    public String toString() {
        return "FakeTimeSource[" + instant() + "]";
    }
}
