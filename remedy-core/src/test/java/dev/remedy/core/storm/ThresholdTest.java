package dev.remedy.core.storm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("Threshold")
class ThresholdTest {

    @ParameterizedTest(name = "\"{0}\" is {1} {2}")
    @CsvSource({"0, 0, NODES", "3, 3, NODES", "0%, 0, PERCENT", "40%, 40, PERCENT", "100%, 100, PERCENT",
        "007, 7, NODES"})
    @DisplayName("parses a count or a whole percentage")
    void parses(String text, int value, Threshold.Unit unit) {
        assertThat(Threshold.parse(text)).isEqualTo(new Threshold(value, unit));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", " 3", "3 ", "-1", "+3", "40.5%", "101%", "%", "3%%", "abc", "1e3", "3 %",
        "9999999999", "40 %"})
    @DisplayName("rejects any other text with a message naming it")
    void rejects(String text) {
        assertThatThrownBy(() -> Threshold.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"" + text + "\"");
    }

    @Test
    @DisplayName("rejects a negative count and a percentage above 100 when built directly")
    void validatesComponents() {
        assertThatThrownBy(() -> Threshold.nodes(-1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> Threshold.percent(101)).hasMessageContaining("101%");
    }

    @ParameterizedTest(name = "{0}% of {1} nodes: at least {2} healthy (up), at most {3} unhealthy (down)")
    @CsvSource({
        "0, 0, 0, 0",
        "0, 10, 0, 0",
        "100, 0, 0, 0",
        "100, 1, 1, 1",
        "100, 10, 10, 10",
        "51, 1, 1, 0",
        "50, 1, 1, 0",
        "1, 1, 1, 0",
        "34, 3, 2, 1",
        "33, 3, 1, 0",
        "67, 3, 3, 2",
        "66, 3, 2, 1",
        "51, 3, 2, 1",
        "40, 10, 4, 4",
        "40, 4, 2, 1",
        "51, 10, 6, 5",
        "51, 5000, 2550, 2550",
        "99, 100001, 99001, 99000"})
    @DisplayName("rounds a percentage up for minHealthy and down for maxUnhealthy")
    void roundingTable(int percent, int total, int minHealthy, int maxUnhealthy) {
        Threshold threshold = Threshold.percent(percent);
        assertThat(threshold.minHealthyNodes(total)).isEqualTo(minHealthy);
        assertThat(threshold.maxUnhealthyNodes(total)).isEqualTo(maxUnhealthy);
        assertThat(threshold.nodesFor(total, Threshold.Rounding.UP)).isEqualTo(minHealthy);
        assertThat(threshold.nodesFor(total, Threshold.Rounding.DOWN)).isEqualTo(maxUnhealthy);
    }

    @Test
    @DisplayName("uses a count as is, not capped by the pool size")
    void countIsNotRounded() {
        assertThat(Threshold.nodes(3).minHealthyNodes(10)).isEqualTo(3);
        assertThat(Threshold.nodes(3).maxUnhealthyNodes(10)).isEqualTo(3);
        assertThat(Threshold.nodes(5).minHealthyNodes(2)).isEqualTo(5);
    }

    @Test
    @DisplayName("does not overflow on the largest pool")
    void noOverflow() {
        assertThat(Threshold.percent(100).minHealthyNodes(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThat(Threshold.percent(50).maxUnhealthyNodes(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE / 2);
    }

    @Test
    @DisplayName("refuses a negative pool size")
    void negativeTotal() {
        assertThatThrownBy(() -> Threshold.percent(10).minHealthyNodes(-1)).hasMessageContaining("-1");
    }

    @Test
    @DisplayName("prints the text it parses")
    void roundTrip() {
        assertThat(Threshold.percent(40)).hasToString("40%");
        assertThat(Threshold.nodes(3)).hasToString("3");
        assertThat(Threshold.parse(Threshold.percent(40).toString())).isEqualTo(Threshold.percent(40));
    }
}
