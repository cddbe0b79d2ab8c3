package dev.remedy.simulators.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.PowerState;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A Redfish simulator spec")
class RedfishSpecTest {

    @Test
    @DisplayName("by default has one admin, one system, no PDU, 16 sessions, plain HTTP and 4 threads")
    void defaults() {
        RedfishSpec spec = RedfishSpec.ofDefaults();
        assertThat(spec.users()).containsExactly(new RedfishUser("admin", "redfish-secret"));
        assertThat(spec.systems()).containsExactly("node-1");
        assertThat(spec.pdus()).isEmpty();
        assertThat(spec.maxSessions()).isEqualTo(RedfishSpec.DEFAULT_MAX_SESSIONS).isEqualTo(16);
        assertThat(spec.tls()).isFalse();
        assertThat(spec.threads()).isEqualTo(4);
        assertThat(spec.initialPower()).isEqualTo(PowerState.ON);
        assertThat(spec.requestLogLimit()).isEqualTo(RedfishSpec.DEFAULT_REQUEST_LOG_LIMIT);
    }

    @Test
    @DisplayName("generates node-1 to node-N for systemCount, and the last system setter wins")
    void systemCount() {
        RedfishSpec spec = RedfishSpec.builder().user("a", "b").systems("x").systemCount(500).build();
        assertThat(spec.systems()).hasSize(500).startsWith("node-1", "node-2").endsWith("node-500");
        assertThat(spec.toString()).contains("500 systems");
        assertThat(RedfishSpec.builder().user("a", "b").systemCount(3).systems(List.of("y")).build().systems())
                .containsExactly("y");
    }

    @Test
    @DisplayName("never shows a password")
    void masksPasswords() {
        RedfishSpec spec = RedfishSpec.builder().user("admin", "top-secret-1").build();
        assertThat(spec.toString()).contains("admin").doesNotContain("top-secret-1");
        assertThat(spec.users().get(0).toString()).doesNotContain("top-secret-1");
    }

    @Test
    @DisplayName("refuses invalid settings at once, naming them")
    void validation() {
        RedfishSpec.Builder builder = RedfishSpec.builder().user("admin", "pw");
        assertThatThrownBy(() -> builder.user("admin", "other")).hasMessageContaining("twice");
        assertThatThrownBy(() -> builder.user("a:b", "pw")).hasMessageContaining("':'");
        assertThatThrownBy(() -> builder.user("bob", "")).hasMessageContaining("password");
        assertThatThrownBy(() -> builder.systems("ok", "ok")).hasMessageContaining("twice");
        assertThatThrownBy(() -> builder.systems("a/b")).hasMessageContaining("URI segment");
        assertThatThrownBy(() -> builder.systemCount(-1)).hasMessageContaining("systemCount");
        assertThatThrownBy(() -> builder.outlets("pdu", 0)).hasMessageContaining("outlets 0");
        assertThatThrownBy(() -> builder.outlets("pdu", 1).outlets("pdu", 2)).hasMessageContaining("twice");
        assertThatThrownBy(() -> builder.maxSessions(0)).hasMessageContaining("maxSessions");
        assertThatThrownBy(() -> builder.threads(0)).hasMessageContaining("threads");
        assertThatThrownBy(() -> builder.requestLogLimit(-1)).hasMessageContaining("requestLogLimit");
        assertThatThrownBy(() -> builder.initialPower(PowerState.UNKNOWN)).hasMessageContaining("UNKNOWN");
        assertThatThrownBy(() -> RedfishSpec.builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("user(name, password)");
    }
}
