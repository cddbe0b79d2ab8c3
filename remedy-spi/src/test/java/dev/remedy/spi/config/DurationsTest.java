package dev.remedy.spi.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Durations")
class DurationsTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({"PT0S, 0s", "PT0.5S, 500ms", "PT30S, 30s", "PT90S, 90s", "PT5M, 5m", "PT2H, 2h", "PT168H, 7d",
        "PT25H, 25h", "PT1.001S, 1001ms"})
    @DisplayName("formats the shortest exact short form, which parses back to the same duration")
    void format(Duration duration, String text) {
        assertThat(Durations.format(duration)).isEqualTo(text);
        assertThat(Durations.parse(text)).isEqualTo(duration);
    }

    @Test
    @DisplayName("accepts a duration up to its limit and refuses a longer one, naming the text and the limit")
    void limit() {
        assertThat(Durations.parse("7d", Duration.ofDays(7))).isEqualTo(Duration.ofDays(7));
        assertThat(Durations.parse("PT168H", Duration.ofDays(7))).isEqualTo(Duration.ofDays(7));
        assertThatThrownBy(() -> Durations.parse("PT168H0.001S", Duration.ofDays(7)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("'PT168H0.001S' is longer than 7d");
    }

    @Test
    @DisplayName("refuses durations that overflow as longer than the limit, in every form")
    void overflow() {
        for (String text : new String[] {"P999999999999D", "PT2562047788015215H", "99999999999999999999d",
            "PT99999999999999999999H"}) {
            assertThatThrownBy(() -> Durations.parse(text, Duration.ofHours(1))).as(text)
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("'" + text + "' is longer than 1h");
        }
        assertThatThrownBy(() -> Durations.parse("PT99999999999999999999H"))
                .hasMessage("'PT99999999999999999999H' is too long a duration");
    }

    @Test
    @DisplayName("has no short form for a negative duration")
    void negative() {
        assertThatThrownBy(() -> Durations.format(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
