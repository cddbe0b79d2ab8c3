package dev.remedy.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FakeTimeSourceTest {

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    @DisplayName("sleeping advances both the monotonic reading and the wall clock, instantly")
    void sleepAdvances() throws InterruptedException {
        FakeTimeSource time = new FakeTimeSource();
        time.sleep(Duration.ofMinutes(5));
        assertThat(time.nanoTime()).isEqualTo(Duration.ofMinutes(5).toNanos());
        assertThat(time.instant()).isEqualTo(FakeTimeSource.DEFAULT_START.plus(Duration.ofMinutes(5)));
        assertThat(time.elapsed()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    @DisplayName("a clock started near overflow wraps, and differences stay right across the wrap")
    void wrapsAroundOverflow() {
        FakeTimeSource time = FakeTimeSource.nearOverflow(Duration.ofSeconds(1));
        long before = time.nanoTime();
        time.advance(Duration.ofSeconds(3));
        assertThat(time.nanoTime()).isNegative();
        assertThat(time.nanoTime() - before).isEqualTo(Duration.ofSeconds(3).toNanos());
        assertThat(time.instant()).isEqualTo(FakeTimeSource.DEFAULT_START.plusSeconds(3));
    }

    @Test
    @DisplayName("an interrupted thread cannot sleep on the fake clock, and time does not move")
    void interruptedSleepThrows() {
        FakeTimeSource time = new FakeTimeSource();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> time.sleep(Duration.ofSeconds(1))).isInstanceOf(InterruptedException.class);
        assertThat(time.nanoTime()).isZero();
    }

    @Test
    @DisplayName("time never moves backwards")
    void noBackwards() {
        FakeTimeSource time = new FakeTimeSource();
        assertThatThrownBy(() -> time.advance(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("forward");
    }
}
