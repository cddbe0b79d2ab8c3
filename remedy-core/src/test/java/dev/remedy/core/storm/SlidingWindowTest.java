package dev.remedy.core.storm;

import static dev.remedy.core.storm.Pool.T0;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SlidingWindow")
class SlidingWindowTest {

    private static final Duration WINDOW = Duration.ofMinutes(1);

    @Test
    @DisplayName("counts an event from its instant until one window later, exclusive")
    void expiry() {
        SlidingWindow window = new SlidingWindow(RateLimit.of(5, WINDOW));
        window.record(2, T0);

        assertThat(window.used(T0.plus(WINDOW).minusNanos(1))).isEqualTo(2);
        assertThat(window.used(T0.plus(WINDOW))).isZero();
    }

    @Test
    @DisplayName("keeps at most limit entries however many events are recorded, erring on the safe side")
    void boundedMemory() {
        SlidingWindow window = new SlidingWindow(RateLimit.of(3, WINDOW));
        for (int i = 0; i < 10_000; i++) {
            window.record(1, T0.plusMillis(i));
        }

        assertThat(window.entryCount()).isEqualTo(3);
        assertThat(window.used(T0.plusMillis(10_000))).isEqualTo(10_000);
        assertThat(window.available(T0.plusMillis(10_000))).isZero();
        assertThat(window.available(T0.plusMillis(9_999).plus(WINDOW))).isEqualTo(3);
    }

    @Test
    @DisplayName("tells when room for a number of events frees up")
    void nextRoom() {
        SlidingWindow window = new SlidingWindow(RateLimit.of(4, WINDOW));
        window.record(2, T0);
        window.record(2, T0.plusSeconds(10));

        assertThat(window.nextRoom(1, T0.plusSeconds(20))).isEqualTo(T0.plus(WINDOW));
        assertThat(window.nextRoom(3, T0.plusSeconds(20))).isEqualTo(T0.plusSeconds(10).plus(WINDOW));
        assertThat(window.nextRoom(0, T0.plusSeconds(20))).isEqualTo(T0.plusSeconds(20));
    }

    @Test
    @DisplayName("when time steps back, keeps counting the events it holds")
    void timeStepsBack() {
        SlidingWindow window = new SlidingWindow(RateLimit.of(2, WINDOW));
        window.record(1, T0);

        assertThat(window.tryAcquire(1, T0.minusSeconds(30))).isTrue();
        assertThat(window.tryAcquire(1, T0.minusSeconds(20))).isFalse();
        assertThat(window.used(T0.plusSeconds(45))).isEqualTo(2);
        assertThat(window.used(T0.plus(WINDOW))).isZero();
    }
}
