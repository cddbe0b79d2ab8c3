package dev.remedy.core.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The safe time to assume a node rebooted, from the check intervals, timeouts, peer batches and the watchdog. */
class SafeTimeSettingsTest {

    private static final SafeTimeSettings DEFAULTS = SafeTimeSettings.ofDefaults();

    @Test
    @DisplayName("the defaults are 15 s checks, 5 s API timeout, 3 errors, 30 s allowance, 5 s + 5 s per peer, 60 s watchdog, 15 s reboot")
    void defaults() {
        assertThat(DEFAULTS).isEqualTo(new SafeTimeSettings(Duration.ofSeconds(15), Duration.ofSeconds(5), 3,
                Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(60),
                Duration.ofSeconds(15)));
        assertThat(DEFAULTS.detectionTime()).isEqualTo(Duration.ofSeconds(60));
        assertThat(SafeTimeSettings.DEFAULT_SAFE_TIME).isEqualTo(Duration.ofSeconds(180));
    }

    @ParameterizedTest(name = "n={0}: {1} batches, minimum {2}s, effective {3}s")
    @CsvSource({"1, 0, 165, 180", "2, 1, 175, 180", "4, 1, 175, 180", "5, 2, 185, 185", "6, 3, 195, 195",
        "10, 7, 235, 235", "19, 16, 325, 325", "20, 9, 255, 255", "100, 10, 265, 265", "5000, 10, 265, 265"})
    @DisplayName("with the defaults the safe time is 165 s + 10 s per batch, never below the configured 180 s")
    void figures(int n, int batches, long minimum, long effective) {
        assertThat(PeerSelection.batchCount(n)).isEqualTo(batches);
        assertThat(DEFAULTS.peerTime(n)).isEqualTo(Duration.ofSeconds(10L * batches));
        assertThat(DEFAULTS.minimumSafeTime(n)).isEqualTo(Duration.ofSeconds(minimum));
        assertThat(DEFAULTS.effectiveSafeTime(SafeTimeSettings.DEFAULT_SAFE_TIME, n))
                .isEqualTo(Duration.ofSeconds(effective));
    }

    @Test
    @DisplayName("each term adds exactly once: detection, allowance, batches, watchdog, reboot")
    void formula() {
        SafeTimeSettings s = new SafeTimeSettings(Duration.ofSeconds(10), Duration.ofSeconds(2), 4,
                Duration.ofSeconds(7), Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(30),
                Duration.ofSeconds(11));
        // 4 × 12 + 7 + 10 batches × 4 + 30 + 11 for 100 nodes
        assertThat(s.minimumSafeTime(100)).isEqualTo(Duration.ofSeconds(48 + 7 + 40 + 30 + 11));
        assertThat(s.effectiveSafeTime(Duration.ofSeconds(600), 100)).isEqualTo(Duration.ofSeconds(600));
        assertThat(s.effectiveSafeTime(Duration.ZERO, 100)).isEqualTo(s.minimumSafeTime(100));
    }

    @Test
    @DisplayName("invalid settings are refused with the field named")
    void validation() {
        Duration one = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new SafeTimeSettings(Duration.ZERO, one, 1, one, one, one, one, one))
                .hasMessageContaining("apiCheckInterval");
        assertThatThrownBy(() -> new SafeTimeSettings(one, one, 0, one, one, one, one, one))
                .hasMessageContaining("maxApiErrorThreshold");
        assertThatThrownBy(() -> new SafeTimeSettings(one, one, 1, one.negated(), one, one, one, one))
                .hasMessageContaining("decisionAllowance");
        assertThatThrownBy(() -> new SafeTimeSettings(one, one, 1, one, one, null, one, one))
                .hasMessageContaining("peerRequestTimeout");
        assertThatThrownBy(() -> new SafeTimeSettings(one, one, 1, one, one, one, Duration.ZERO, one))
                .hasMessageContaining("watchdogTimeout");
        assertThatThrownBy(() -> DEFAULTS.effectiveSafeTime(one.negated(), 3)).hasMessageContaining("configured");
        assertThatThrownBy(() -> DEFAULTS.minimumSafeTime(0)).hasMessageContaining("clusterSize");
    }
}
