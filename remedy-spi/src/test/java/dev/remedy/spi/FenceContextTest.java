package dev.remedy.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("FenceContext")
class FenceContextTest {

    /** A clock that moves only when slept on; it never waits. */
    private static final class FakeClock implements TimeSource {
        private final AtomicLong nanos;
        private final List<Duration> sleeps = new ArrayList<>();

        FakeClock(long startNanos) {
            this.nanos = new AtomicLong(startNanos);
        }

        @Override
        public long nanoTime() {
            return nanos.get();
        }

        @Override
        public Instant instant() {
            return Instant.EPOCH.plusNanos(nanos.get());
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
            if (Thread.currentThread().isInterrupted()) {
                Thread.interrupted();
                throw new InterruptedException("interrupted on the fake clock");
            }
            sleeps.add(duration);
            if (!duration.isNegative()) {
                nanos.addAndGet(duration.toNanos());
            }
        }

        void advance(Duration duration) {
            nanos.addAndGet(duration.toNanos());
        }
    }

    private static final Duration ONE_SECOND = Duration.ofSeconds(1);

    @AfterEach
    void clearInterruptFlag() {
        Thread.interrupted();
    }

    @Test
    @DisplayName("a fresh context has its whole budget left, nothing elapsed and is not expired")
    void fresh() {
        FakeClock clock = new FakeClock(0);

        FenceContext context = FenceContext.start(clock, Duration.ofSeconds(10));

        assertThat(context.time()).isSameAs(clock);
        assertThat(context.budget()).isEqualTo(Duration.ofSeconds(10));
        assertThat(context.elapsed()).isEqualTo(Duration.ZERO);
        assertThat(context.remaining()).isEqualTo(Duration.ofSeconds(10));
        assertThat(context.expired()).isFalse();
    }

    @Test
    @DisplayName("elapsed and remaining follow the clock, and remaining stops at zero after the deadline")
    void followsTheClock() {
        FakeClock clock = new FakeClock(1_000);
        FenceContext context = FenceContext.start(clock, Duration.ofSeconds(10));

        clock.advance(Duration.ofSeconds(4));
        assertThat(context.elapsed()).isEqualTo(Duration.ofSeconds(4));
        assertThat(context.remaining()).isEqualTo(Duration.ofSeconds(6));
        assertThat(context.expired()).isFalse();

        clock.advance(Duration.ofSeconds(6).minusNanos(1));
        assertThat(context.remaining()).isEqualTo(Duration.ofNanos(1));
        assertThat(context.expired()).isFalse();

        clock.advance(Duration.ofNanos(1));
        assertThat(context.remaining()).isEqualTo(Duration.ZERO);
        assertThat(context.expired()).isTrue();

        clock.advance(Duration.ofSeconds(100));
        assertThat(context.remaining()).isEqualTo(Duration.ZERO);
        assertThat(context.expired()).isTrue();
        assertThat(context.elapsed()).isEqualTo(Duration.ofSeconds(110));
        assertThat(context.budget()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    @DisplayName("cap() gives the smaller of the wanted time and the time left")
    void cap() {
        FakeClock clock = new FakeClock(0);
        FenceContext context = FenceContext.start(clock, Duration.ofSeconds(10));

        assertThat(context.cap(Duration.ofSeconds(3))).isEqualTo(Duration.ofSeconds(3));
        assertThat(context.cap(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(10));
        assertThat(context.cap(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(10));

        clock.advance(Duration.ofSeconds(8));
        assertThat(context.cap(Duration.ofSeconds(3))).isEqualTo(Duration.ofSeconds(2));

        clock.advance(Duration.ofSeconds(5));
        assertThat(context.cap(Duration.ofSeconds(3))).isEqualTo(Duration.ZERO);
    }

    @Test
    @DisplayName("sleep() waits the asked time, but never past the deadline, and not at all once expired")
    void sleepIsCapped() throws InterruptedException {
        FakeClock clock = new FakeClock(0);
        FenceContext context = FenceContext.start(clock, Duration.ofSeconds(10));

        context.sleep(Duration.ofSeconds(3));
        assertThat(context.elapsed()).isEqualTo(Duration.ofSeconds(3));

        context.sleep(Duration.ofMinutes(5));
        assertThat(context.elapsed()).isEqualTo(Duration.ofSeconds(10));
        assertThat(context.expired()).isTrue();

        context.sleep(Duration.ofSeconds(1));
        assertThat(context.elapsed()).isEqualTo(Duration.ofSeconds(10));
        assertThat(clock.sleeps).containsExactly(Duration.ofSeconds(3), Duration.ofSeconds(7));
    }

    @Test
    @DisplayName("sleep() of zero does not touch the clock")
    void sleepZero() throws InterruptedException {
        FakeClock clock = new FakeClock(0);
        FenceContext context = FenceContext.start(clock, Duration.ofSeconds(10));

        context.sleep(Duration.ZERO);

        assertThat(clock.sleeps).isEmpty();
        assertThat(context.elapsed()).isEqualTo(Duration.ZERO);
    }

    @Test
    @DisplayName("deadline arithmetic survives the clock wrapping past Long.MAX_VALUE")
    void wrapAround() throws InterruptedException {
        FakeClock clock = new FakeClock(Long.MAX_VALUE - ONE_SECOND.toNanos());
        FenceContext context = FenceContext.start(clock, Duration.ofSeconds(5));

        assertThat(context.remaining()).isEqualTo(Duration.ofSeconds(5));
        assertThat(context.elapsed()).isEqualTo(Duration.ZERO);

        context.sleep(Duration.ofSeconds(2));
        assertThat(clock.nanoTime()).as("the reading has wrapped").isNegative();
        assertThat(context.elapsed()).isEqualTo(Duration.ofSeconds(2));
        assertThat(context.remaining()).isEqualTo(Duration.ofSeconds(3));
        assertThat(context.expired()).isFalse();
        assertThat(context.cap(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(1));
        assertThat(context.cap(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(3));

        context.sleep(Duration.ofSeconds(10));
        assertThat(clock.sleeps).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(3));
        assertThat(context.elapsed()).isEqualTo(Duration.ofSeconds(5));
        assertThat(context.remaining()).isEqualTo(Duration.ZERO);
        assertThat(context.expired()).isTrue();
        assertThat(context.cap(Duration.ofSeconds(1))).isEqualTo(Duration.ZERO);

        context.sleep(Duration.ofSeconds(1));
        assertThat(clock.sleeps).hasSize(2);
        assertThat(context.elapsed()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    @DisplayName("a context started just before the wrap expires exactly at its deadline on the other side")
    void wrapAroundDeadlineIsExact() {
        FakeClock clock = new FakeClock(Long.MAX_VALUE - ONE_SECOND.toNanos());
        FenceContext context = FenceContext.start(clock, Duration.ofSeconds(2));

        clock.advance(Duration.ofSeconds(2).minusNanos(1));
        assertThat(context.expired()).isFalse();
        assertThat(context.remaining()).isEqualTo(Duration.ofNanos(1));

        clock.advance(Duration.ofNanos(1));
        assertThat(context.expired()).isTrue();
    }

    @Test
    @DisplayName("a huge budget is capped so that the deadline cannot overflow, even near the wrap")
    void hugeBudget() {
        FakeClock clock = new FakeClock(Long.MAX_VALUE - ONE_SECOND.toNanos());

        FenceContext context = FenceContext.start(clock, Duration.ofSeconds(Long.MAX_VALUE));

        assertThat(context.budget()).isEqualTo(Duration.ofNanos(Long.MAX_VALUE / 4));
        assertThat(context.remaining()).isEqualTo(context.budget());
        clock.advance(Duration.ofDays(365));
        assertThat(context.expired()).isFalse();
        assertThat(context.elapsed()).isEqualTo(Duration.ofDays(365));
        assertThat(context.remaining()).isEqualTo(context.budget().minus(Duration.ofDays(365)));
    }

    @Test
    @DisplayName("a zero or negative budget, or a missing argument, is refused")
    void badArguments() {
        FakeClock clock = new FakeClock(0);

        assertThatThrownBy(() -> FenceContext.start(clock, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive time budget");
        assertThatThrownBy(() -> FenceContext.start(clock, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> FenceContext.start(null, ONE_SECOND)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> FenceContext.start(clock, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> FenceContext.start(clock, ONE_SECOND, null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    @DisplayName("sleep() throws InterruptedException when the thread is interrupted, and clears the flag")
    void sleepInterrupted() {
        FakeClock clock = new FakeClock(0);
        FenceContext context = FenceContext.start(clock, Duration.ofSeconds(10));

        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> context.sleep(ONE_SECOND)).isInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(clock.sleeps).isEmpty();
        assertThat(context.elapsed()).isEqualTo(Duration.ZERO);
    }

    @Test
    @DisplayName("sleep() throws InterruptedException even when the deadline has already passed")
    void sleepInterruptedAfterDeadline() {
        FakeClock clock = new FakeClock(0);
        FenceContext context = FenceContext.start(clock, ONE_SECOND);
        clock.advance(Duration.ofSeconds(5));

        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> context.sleep(ONE_SECOND)).isInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    @DisplayName("checkInterrupted() passes on a running thread and throws, clearing the flag, when interrupted")
    void checkInterrupted() {
        FenceContext context = FenceContext.start(new FakeClock(0), ONE_SECOND);

        assertThatCode(context::checkInterrupted).doesNotThrowAnyException();

        Thread.currentThread().interrupt();
        assertThatThrownBy(context::checkInterrupted)
                .isInstanceOf(InterruptedException.class)
                .hasMessageContaining("interrupted");
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThatCode(context::checkInterrupted).doesNotThrowAnyException();
    }

    @Test
    @DisplayName("progress() passes every message to the listener, in order")
    void progressReachesListener() {
        List<String> messages = new ArrayList<>();
        FenceContext context = FenceContext.start(new FakeClock(0), ONE_SECOND, messages::add);

        context.progress("sending OFF");
        context.progress("waiting for OFF, 1 of 20 polls");

        assertThat(messages).containsExactly("sending OFF", "waiting for OFF, 1 of 20 polls");
    }

    @Test
    @DisplayName("withProgress() keeps the clock, start and deadline and reports to the new listener only")
    void withProgressKeepsTheDeadline() {
        FakeClock clock = new FakeClock(0);
        List<String> original = new ArrayList<>();
        List<String> rewritten = new ArrayList<>();
        FenceContext context = FenceContext.start(clock, ONE_SECOND, original::add);
        clock.advance(Duration.ofMillis(300));

        FenceContext wrapped = context.withProgress(message -> rewritten.add("[" + message + "]"));
        wrapped.progress("sending OFF");
        clock.advance(Duration.ofMillis(200));

        assertThat(rewritten).containsExactly("[sending OFF]");
        assertThat(original).isEmpty();
        assertThat(wrapped.time()).isSameAs(clock);
        assertThat(wrapped.budget()).isEqualTo(ONE_SECOND);
        assertThat(wrapped.elapsed()).isEqualTo(Duration.ofMillis(500));
        assertThat(wrapped.remaining()).isEqualTo(context.remaining()).isEqualTo(Duration.ofMillis(500));
        assertThatThrownBy(() -> context.withProgress(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    @DisplayName("a listener that throws is logged and ignored")
    void failingListenerIsIgnored() {
        Logger logger = Logger.getLogger(FenceContext.class.getName());
        List<LogRecord> records = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord logRecord) {
                records.add(logRecord);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        boolean useParent = logger.getUseParentHandlers();
        logger.addHandler(capture);
        logger.setUseParentHandlers(false);
        try {
            FenceContext context = FenceContext.start(new FakeClock(0), ONE_SECOND, message -> {
                throw new IllegalStateException("listener broke on " + message);
            });

            assertThatCode(() -> context.progress("sending OFF")).doesNotThrowAnyException();

            assertThat(records).singleElement().satisfies(r -> {
                assertThat(r.getLevel()).isEqualTo(java.util.logging.Level.WARNING);
                assertThat(r.getThrown()).hasMessage("listener broke on sending OFF");
            });
        } finally {
            logger.removeHandler(capture);
            logger.setUseParentHandlers(useParent);
        }
    }

    @Test
    @DisplayName("a context without a listener accepts progress messages silently")
    void noListener() {
        FenceContext context = FenceContext.start(new FakeClock(0), ONE_SECOND);

        assertThatCode(() -> context.progress("anything")).doesNotThrowAnyException();
        assertThatCode(() -> ProgressListener.NONE.onProgress("anything")).doesNotThrowAnyException();
    }

    @Test
    @DisplayName("the fake clock used here throws when the thread is interrupted, like a real sleep")
    void fakeClockHonoursInterrupts() {
        FakeClock clock = new FakeClock(0);

        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> clock.sleep(ONE_SECOND)).isInstanceOf(InterruptedException.class);
        assertThat(clock.nanoTime()).isZero();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    @DisplayName("await returns the outcome of an asynchronous action without cancelling it")
    void awaitReturnsTheOutcome() throws InterruptedException {
        FenceContext context = FenceContext.start(TimeSource.system(), Duration.ofSeconds(5));
        List<String> cancelled = new ArrayList<>();
        FenceOutcome done = FenceOutcome.succeeded(PowerState.OFF, "off");
        assertThat(context.await(FenceAction.OFF, "BMC x", CompletableFuture.completedFuture(done),
                () -> cancelled.add("cancel"))).isSameAs(done);
        assertThat(cancelled).isEmpty();
    }

    @Test
    @DisplayName("await cancels an action that does not report by the deadline plus the grace, and says TIMED_OUT")
    void awaitTimesOut() throws InterruptedException {
        FenceContext context = FenceContext.start(TimeSource.system(), Duration.ofMillis(1));
        List<String> cancelled = new ArrayList<>();
        FenceOutcome outcome = context.await(FenceAction.OFF, "BMC 10.0.0.5:623", new CompletableFuture<>(),
                () -> cancelled.add("cancel"));
        assertThat(outcome.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(outcome.detail()).isEqualTo("OFF on BMC 10.0.0.5:623 did not finish within 1 ms");
        assertThat(cancelled).containsExactly("cancel");
    }

    @Test
    @DisplayName("await cancels the action and rethrows when the waiting thread is interrupted")
    void awaitInterrupted() {
        FenceContext context = FenceContext.start(TimeSource.system(), Duration.ofSeconds(5));
        List<String> cancelled = new ArrayList<>();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> context.await(FenceAction.OFF, "BMC x", new CompletableFuture<>(),
                () -> cancelled.add("cancel"))).isInstanceOf(InterruptedException.class);
        assertThat(cancelled).containsExactly("cancel");
    }

    @Test
    @DisplayName("await turns an action that failed with an exception into FAILED, keeping the cause")
    void awaitFailed() throws InterruptedException {
        FenceContext context = FenceContext.start(TimeSource.system(), Duration.ofSeconds(5));
        IllegalStateException bug = new IllegalStateException("agent bug");
        FenceOutcome outcome = context.await(FenceAction.STATUS, "Redfish service https://bmc:443",
                CompletableFuture.failedFuture(bug), () -> { });
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).startsWith("STATUS on Redfish service https://bmc:443 failed unexpectedly");
        assertThat(outcome.cause()).contains(bug);
    }
}
