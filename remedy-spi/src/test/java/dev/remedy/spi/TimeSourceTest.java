package dev.remedy.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TimeSource.system()")
class TimeSourceTest {

    @AfterEach
    void clearInterruptFlag() {
        Thread.interrupted();
    }

    @Test
    @DisplayName("is one shared instance whose readings do not go backwards")
    void systemClock() {
        TimeSource system = TimeSource.system();

        long first = system.nanoTime();
        long second = system.nanoTime();

        assertThat(TimeSource.system()).isSameAs(system);
        assertThat(second - first).isNotNegative();
        assertThat(system.instant()).isAfter(Instant.parse("2020-01-01T00:00:00Z"));
        assertThat(system).hasToString("TimeSource.system()");
    }

    @Test
    @DisplayName("returns at once for a zero or negative sleep")
    void nonPositiveSleep() {
        TimeSource system = TimeSource.system();

        assertThatCode(() -> system.sleep(Duration.ZERO)).doesNotThrowAnyException();
        assertThatCode(() -> system.sleep(Duration.ofSeconds(-5))).doesNotThrowAnyException();
    }

    @Test
    @DisplayName("throws InterruptedException without sleeping when the thread is already interrupted")
    void interruptedSleep() {
        TimeSource system = TimeSource.system();
        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> system.sleep(Duration.ofDays(1))).isInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
}
