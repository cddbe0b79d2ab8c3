package dev.remedy.spi;

import java.time.Duration;
import java.time.Instant;

/** The system clock; the only place in core and SPI main code that reads time or sleeps directly. */
final class SystemTimeSource implements TimeSource {

    static final SystemTimeSource INSTANCE = new SystemTimeSource();

    private SystemTimeSource() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Instant instant() {
        return Instant.now();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before sleeping");
        }
        if (duration.isNegative() || duration.isZero()) {
            return;
        }
        long millis = duration.toMillis();
        int nanos = (int) (duration.minusMillis(millis).toNanos());
        Thread.sleep(millis, nanos);
    }

    @Override
    public String toString() {
        return "TimeSource.system()";
    }
}
