package dev.remedy.core.storm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Two rules of the anchors: Cluster API's unhealthyRange and oVirt's quiet time between operations on one host. */
class StormGuardAnchorRulesTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    @DisplayName("unhealthyRange [2-3] refuses below and above the range and admits within it")
    void unhealthyRange() {
        StormGuard guard = StormGuard.of(StormSettings.custom().maxUnhealthy("100%").quietPeriod(Duration.ZERO)
                .unhealthyRange("[2-3]").build(), new SplittableRandom(1));
        assertThat(guard.admit("n0", pool(10, 1), T0)).isInstanceOfSatisfying(Admission.Refused.class, r -> {
            assertThat(r.reason()).isEqualTo(Admission.Reason.UNHEALTHY_RANGE);
            assertThat(r.detail()).contains("1 of 10").contains("[2-3]");
        });
        assertThat(guard.admit("n0", pool(10, 2), T0).admitted()).isTrue();
        assertThat(guard.admit("n0", pool(10, 3), T0).admitted()).isTrue();
        assertThat(guard.admit("n0", pool(10, 4), T0)).isInstanceOf(Admission.Refused.class);
        assertThatThrownBy(() -> UnhealthyRange.parse("3-5")).hasMessageContaining("\"[3-5]\"");
        assertThatThrownBy(() -> new UnhealthyRange(5, 3)).hasMessageContaining("min <= max");
    }

    @Test
    @DisplayName("a node admitted less than nodeCooldown ago is held until the quiet time ends; other nodes are not")
    void nodeCooldown() {
        StormGuard guard = StormGuard.of(StormSettings.custom().maxUnhealthy("100%").quietPeriod(Duration.ZERO)
                .maxConcurrent(10).nodeCooldown(Duration.ofSeconds(180)).build(), new SplittableRandom(1));
        assertThat(guard.admitAndRecord("n0", pool(10, 2), T0).admitted()).isTrue();
        guard.recordFinished("n0");
        assertThat(guard.admit("n0", pool(10, 2), T0.plusSeconds(179)))
                .isInstanceOfSatisfying(Admission.Held.class, h -> {
                    assertThat(h.reason()).isEqualTo(Admission.Reason.NODE_COOLDOWN);
                    assertThat(h.retryAt()).contains(T0.plusSeconds(180));
                });
        assertThat(guard.admit("n1", pool(10, 2), T0.plusSeconds(179)).admitted()).isTrue();
        assertThat(guard.admit("n0", pool(10, 2), T0.plusSeconds(180)).admitted()).isTrue();
    }

    private static PoolView pool(int total, int unhealthy) {
        List<NodeView> nodes = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            nodes.add(NodeView.of("n" + i, i < unhealthy));
        }
        return PoolView.of(nodes);
    }
}
