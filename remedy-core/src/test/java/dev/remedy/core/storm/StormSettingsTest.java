package dev.remedy.core.storm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("StormSettings")
class StormSettingsTest {

    @Test
    @DisplayName("defaults to the documented values")
    void defaults() {
        StormSettings settings = StormSettings.ofDefaults();

        assertThat(settings.minHealthy()).contains(Threshold.percent(51));
        assertThat(settings.maxUnhealthy()).isEmpty();
        assertThat(settings.stormCooldown()).isEqualTo(Duration.ofMinutes(5));
        assertThat(settings.maxConcurrent()).isEqualTo(5);
        assertThat(settings.oneControlPlaneAtATime()).isTrue();
        assertThat(settings.fencesPerWindow()).contains(RateLimit.of(10, Duration.ofMinutes(10)));
        assertThat(settings.podDeletionsPerWindow()).contains(RateLimit.of(1000, Duration.ofMinutes(10)));
        assertThat(settings.failureDomainLabel()).isEmpty();
        assertThat(settings.maxDomainShare()).isEqualTo(0.5);
        assertThat(settings.domainMinUnhealthy()).isEqualTo(3);
        assertThat(settings.domainShareBasis()).isEqualTo(StormSettings.DomainShareBasis.OF_DOMAIN_NODES);
        assertThat(settings.maxDisconnectedShare()).isEqualTo(0.5);
        assertThat(settings.quietPeriod()).isEqualTo(Duration.ofSeconds(300));
        assertThat(settings.raceDelayBase()).isZero();
        assertThat(settings.raceDelayRandomMax()).isZero();
        assertThat(settings.priorityDelay()).isZero();
    }

    @Test
    @DisplayName("lets maxUnhealthy replace the default minHealthy")
    void maxUnhealthyReplacesDefault() {
        StormSettings settings = StormSettings.custom().maxUnhealthy("40%").build();

        assertThat(settings.maxUnhealthy()).contains(Threshold.percent(40));
        assertThat(settings.minHealthy()).isEmpty();
        assertThat(settings.thresholdName()).isEqualTo("maxUnhealthy");
    }

    @Test
    @DisplayName("refuses minHealthy and maxUnhealthy together, naming both")
    void notBoth() {
        assertThatThrownBy(() -> StormSettings.custom().minHealthy("3").maxUnhealthy("40%"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("minHealthy is already set to 3");
        assertThatThrownBy(() -> StormSettings.custom().maxUnhealthy("40%").minHealthy("3"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("maxUnhealthy is already set to 40%");
        StormSettings valid = StormSettings.ofDefaults();
        assertThatThrownBy(() -> new StormSettings(Optional.of(Threshold.nodes(3)), Optional.of(Threshold.nodes(2)),
                valid.stormCooldown(), 1, true, Optional.empty(), Optional.empty(), Optional.empty(), 0.5, 1,
                valid.domainShareBasis(), 0.5, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO,
                Duration.ZERO, Optional.empty()))
                .hasMessageContaining("minHealthy=3").hasMessageContaining("maxUnhealthy=2");
    }

    @Test
    @DisplayName("names the property and the text of an unreadable threshold")
    void thresholdText() {
        assertThatThrownBy(() -> StormSettings.custom().maxUnhealthy("4o%"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxUnhealthy")
                .hasMessageContaining("\"4o%\"");
    }

    static Stream<Arguments> invalidSetters() {
        return Stream.of(
                invalid("stormCooldown", b -> b.stormCooldown(Duration.ofSeconds(-1))),
                invalid("maxConcurrent", b -> b.maxConcurrent(0)),
                invalid("fencesPerWindow", b -> b.fencesPerWindow(0, Duration.ofMinutes(1))),
                invalid("fencesPerWindow", b -> b.fencesPerWindow(1, Duration.ZERO)),
                invalid("podDeletionsPerWindow", b -> b.podDeletionsPerWindow(-5, Duration.ofMinutes(1))),
                invalid("failureDomainLabel", b -> b.failureDomainLabel(" ")),
                invalid("maxDomainShare", b -> b.maxDomainShare(0)),
                invalid("maxDomainShare", b -> b.maxDomainShare(1.5)),
                invalid("maxDomainShare", b -> b.maxDomainShare(Double.NaN)),
                invalid("domainMinUnhealthy", b -> b.domainMinUnhealthy(0)),
                invalid("maxDisconnectedShare", b -> b.maxDisconnectedShare(-0.1)),
                invalid("quietPeriod", b -> b.quietPeriod(Duration.ofSeconds(-300))),
                invalid("raceDelayBase", b -> b.raceDelay(Duration.ofMillis(-1), Duration.ZERO)),
                invalid("raceDelayRandomMax", b -> b.raceDelay(Duration.ZERO, Duration.ofHours(2))),
                invalid("priorityDelay", b -> b.priorityDelay(Duration.ofSeconds(-1))));
    }

    private static Arguments invalid(String property, Consumer<StormSettings.Builder> setter) {
        return Arguments.of(property, setter);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSetters")
    @DisplayName("refuses an invalid value at once, naming the property")
    void invalidValues(String property, Consumer<StormSettings.Builder> setter) {
        assertThatThrownBy(() -> setter.accept(StormSettings.custom()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(property);
    }

    @Test
    @DisplayName("turns off the rate limits on request")
    void noRateLimits() {
        StormSettings settings = StormSettings.custom().noFenceRateLimit().noPodDeletionRateLimit().build();

        assertThat(settings.fencesPerWindow()).isEmpty();
        assertThat(settings.podDeletionsPerWindow()).isEmpty();
    }
}
