package dev.remedy.testkit.redfish;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A monotonic nanosecond clock that moves only when told, starting near overflow. */
final class FakeNanoClock implements LongSupplier {

    private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - Duration.ofMinutes(5).toNanos());

    @Override
    public long getAsLong() {
        return now.get();
    }

    void advance(Duration duration) {
        now.addAndGet(duration.toNanos());
    }
}
