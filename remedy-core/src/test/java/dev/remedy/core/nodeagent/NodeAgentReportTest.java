package dev.remedy.core.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The operator's reading of an agent's Lease: what the agents write, read back. */
class NodeAgentReportTest {

    private static final Instant RENEWED = Instant.parse("2026-11-26T09:00:00Z");
    private final NodeAgentSettings settings = NodeAgentSettings.ofDefaults();

    private static Map<String, String> armed(String timeout) {
        return Map.of("remedy.dev/watchdog", "armed", "remedy.dev/watchdog-timeout", timeout,
                "remedy.dev/node-agent-settings", NodeAgentSettings.ofDefaults().fingerprint());
    }

    @Test
    @DisplayName("an armed report within the window is accepted; older, or not armed, is not")
    void armedWithin() {
        NodeAgentReport r = NodeAgentReport.read("w1", armed("1m"), RENEWED).orElseThrow();
        assertThat(r.armedWithin(RENEWED.plusSeconds(15), Duration.ofSeconds(15))).isTrue();
        assertThat(r.armedWithin(RENEWED.plusSeconds(16), Duration.ofSeconds(15))).isFalse();
        assertThat(r.runs(settings)).isTrue();
        NodeAgentReport soft = NodeAgentReport.read("w1", Map.of("remedy.dev/watchdog", "software-reboot"), RENEWED)
                .orElseThrow();
        assertThat(soft.armedWithin(RENEWED, Duration.ofSeconds(15))).isFalse();
        assertThat(soft.runs(settings)).isFalse();
    }

    @Test
    @DisplayName("the operator waits the longer of the device's timeout and the settings'")
    void longerTimeout() {
        assertThat(NodeAgentReport.read("w1", armed("90s"), RENEWED).orElseThrow().watchdogTimeout(settings))
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(NodeAgentReport.read("w1", armed("30s"), RENEWED).orElseThrow().watchdogTimeout(settings))
                .isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    @DisplayName("a Lease without a usable report (no holder, no mode, an unreadable timeout) reports nothing")
    void unusable() {
        assertThat(NodeAgentReport.read(null, armed("1m"), RENEWED)).isEmpty();
        assertThat(NodeAgentReport.read("w1", Map.of(), RENEWED)).isEmpty();
        assertThat(NodeAgentReport.read("w1", Map.of("remedy.dev/watchdog", "on"), RENEWED)).isEmpty();
        assertThat(NodeAgentReport.read("w1", armed("soon"), RENEWED)).isEmpty();
        assertThat(NodeAgentReport.read("w1", armed("1m"), null)).isEmpty();
    }
}
