package dev.remedy.fence.ipmi.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EventLoopTest {

    private final EventLoop loop = new EventLoop("event-loop-test");

    @AfterEach
    void close() {
        loop.close();
    }

    private <T> T onLoop(java.util.function.Supplier<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        loop.execute(() -> result.complete(work.get()));
        return result.get(5, TimeUnit.SECONDS);
    }

    @Test
    @DisplayName("a timer fires once at its time; a cancelled one never fires")
    void timersFireUnlessCancelled() throws Exception {
        AtomicInteger fired = new AtomicInteger();
        CompletableFuture<Void> kept = new CompletableFuture<>();
        onLoop(() -> {
            long soon = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
            loop.schedule(soon, () -> fired.addAndGet(100)).cancel();
            loop.schedule(soon, () -> {
                fired.incrementAndGet();
                kept.complete(null);
            });
            return null;
        });
        kept.get(5, TimeUnit.SECONDS);
        assertThat(fired).as("the cancelled timer was due first, so it would have fired by now").hasValue(1);
    }

    @Test
    @DisplayName("cancelled timers far in the future are swept out instead of piling up until they are due")
    void cancelledTimersAreSwept() throws Exception {
        int queued = onLoop(() -> {
            long later = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            List<EventLoop.Timer> timers = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                timers.add(loop.schedule(later, () -> { }));
            }
            timers.forEach(EventLoop.Timer::cancel);
            return loop.timersQueued();
        });
        assertThat(queued).as("timers left of 10,000 cancelled ones").isLessThan(2_100);
    }
}
