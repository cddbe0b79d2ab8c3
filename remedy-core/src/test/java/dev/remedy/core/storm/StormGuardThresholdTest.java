package dev.remedy.core.storm;

import static dev.remedy.core.storm.Pool.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.storm.Admission.Held;
import dev.remedy.core.storm.Admission.Reason;
import dev.remedy.core.storm.Admission.Refused;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StormGuard storm threshold and cooldown")
class StormGuardThresholdTest {

    private final List<StormSignal> signals = new ArrayList<>();

    private StormGuard guard(StormSettings.Builder settings) {
        return Pool.guard(settings.build(), (node, pool) -> Optional.empty(), signals::add);
    }

    private static Pool tenWith(int unhealthy) {
        return Pool.create().unhealthy(unhealthy).healthy(10 - unhealthy);
    }

    private static Admission admit(StormGuard guard, Pool pool, Instant now) {
        return guard.admit(pool.candidate(), pool.view(), now);
    }

    @Test
    @DisplayName("minHealthy 51% of 10 nodes admits with 6 healthy and refuses with 5, rounding up")
    void minHealthyBoundary() {
        StormSettings.Builder settings = Pool.permissiveMinHealthy("51%");

        assertThat(admit(guard(settings), tenWith(4), T0).admitted()).isTrue();
        assertThat(admit(guard(settings), tenWith(5), T0)).isEqualTo(new Refused(Reason.MIN_HEALTHY,
                "5 of 10 nodes healthy (50%) is below minHealthy 51% (6 nodes, rounded up)"));
    }

    @Test
    @DisplayName("maxUnhealthy 40% of 10 nodes admits with 4 not healthy and refuses with 5, rounding down")
    void maxUnhealthyBoundary() {
        StormSettings.Builder settings = Pool.permissiveMaxUnhealthy("40%");

        assertThat(admit(guard(settings), tenWith(4), T0).admitted()).isTrue();
        assertThat(admit(guard(settings), tenWith(5), T0)).isEqualTo(new Refused(Reason.MAX_UNHEALTHY,
                "5 of 10 nodes not healthy (50%) exceeds maxUnhealthy 40% (4 nodes, rounded down)"));
        assertThat(admit(guard(settings), tenWith(7), T0)).isEqualTo(new Refused(Reason.MAX_UNHEALTHY,
                "7 of 10 nodes not healthy (70%) exceeds maxUnhealthy 40% (4 nodes, rounded down)"));
    }

    @Test
    @DisplayName("a percentage that does not divide evenly is rounded the documented way for each threshold")
    void unevenPercentages() {
        // 34% of 3 nodes: minHealthy needs ceil(1.02) = 2 healthy; maxUnhealthy allows floor(1.02) = 1.
        Pool oneBad = Pool.create().unhealthy(1).healthy(2);
        Pool twoBad = Pool.create().unhealthy(2).healthy(1);

        assertThat(admit(guard(Pool.permissiveMinHealthy("34%")), oneBad, T0).admitted()).isTrue();
        assertThat(admit(guard(Pool.permissiveMinHealthy("34%")), twoBad, T0)).isInstanceOf(Refused.class);
        assertThat(admit(guard(Pool.permissiveMaxUnhealthy("34%")), oneBad, T0).admitted()).isTrue();
        assertThat(admit(guard(Pool.permissiveMaxUnhealthy("34%")), twoBad, T0)).isInstanceOf(Refused.class);
    }

    @Test
    @DisplayName("a count threshold is compared as is and says so")
    void countThreshold() {
        StormSettings.Builder settings = Pool.permissiveMaxUnhealthy("3");

        assertThat(admit(guard(settings), tenWith(3), T0).admitted()).isTrue();
        assertThat(admit(guard(settings), tenWith(4), T0)).isEqualTo(new Refused(Reason.MAX_UNHEALTHY,
                "4 of 10 nodes not healthy (40%) exceeds maxUnhealthy 3 (3 nodes)"));
    }

    @Test
    @DisplayName("counts a node with a remediation in progress as not healthy")
    void remediatingIsNotHealthy() {
        Pool pool = Pool.create().remediating(2).unhealthy(3).healthy(5);

        Admission admission = admit(guard(Pool.permissiveMaxUnhealthy("4")), pool, T0);

        assertThat(admission).isInstanceOf(Refused.class);
        assertThat(((Refused) admission).detail()).startsWith("5 of 10 nodes not healthy");
    }

    @Test
    @DisplayName("stays in storm for the cooldown after the pool is back within the threshold, restarting it on "
            + "a relapse")
    void cooldownTimeline() {
        StormGuard guard = guard(Pool.permissiveMaxUnhealthy("2").stormCooldown(Duration.ofMinutes(5)));
        Pool storm = tenWith(3);
        Pool calm = tenWith(2);

        assertThat(admit(guard, storm, T0)).isInstanceOf(Refused.class);
        assertThat(guard.inStorm()).isTrue();
        assertThat(admit(guard, calm, T0.plusSeconds(60))).isEqualTo(new Held(Reason.STORM_COOLDOWN,
                "pool back within maxUnhealthy 2 since " + T0.plusSeconds(60) + "; stormCooldown PT5M lasts until "
                        + T0.plusSeconds(360), Optional.of(T0.plusSeconds(360))));
        assertThat(admit(guard, storm, T0.plusSeconds(180))).isInstanceOf(Refused.class);
        assertThat(admit(guard, calm, T0.plusSeconds(240))).isInstanceOfSatisfying(Held.class,
                held -> assertThat(held.retryAt()).contains(T0.plusSeconds(540)));
        assertThat(admit(guard, calm, T0.plusSeconds(539))).isInstanceOf(Held.class);
        assertThat(guard.inStorm()).isTrue();

        assertThat(admit(guard, calm, T0.plusSeconds(540)).admitted()).isTrue();
        assertThat(guard.inStorm()).isFalse();
        assertThat(signals).filteredOn(StormSignal.StormStarted.class::isInstance).hasSize(1);
        assertThat(signals).filteredOn(StormSignal.StormEnded.class::isInstance).singleElement()
                .satisfies(ended -> assertThat(ended.at()).isEqualTo(T0.plusSeconds(540)));
    }

    @Test
    @DisplayName("starts and ends a storm from observations alone, reporting each once")
    void observeOnly() {
        StormGuard guard = guard(Pool.permissiveMaxUnhealthy("2").stormCooldown(Duration.ofMinutes(1)));

        guard.observe(tenWith(5).view(), T0);
        guard.observe(tenWith(6).view(), T0.plusSeconds(10));
        guard.observe(tenWith(0).view(), T0.plusSeconds(20));
        guard.observe(tenWith(0).view(), T0.plusSeconds(80));
        guard.observe(tenWith(0).view(), T0.plusSeconds(90));

        assertThat(signals).extracting(s -> s.getClass().getSimpleName())
                .containsExactly("StormStarted", "StormEnded");
        assertThat(((StormSignal.StormStarted) signals.get(0)).reason()).isEqualTo(Reason.MAX_UNHEALTHY);
        assertThat(signals.get(0).detail()).isEqualTo(
                "5 of 10 nodes not healthy (50%) exceeds maxUnhealthy 2 (2 nodes)");
        assertThat(signals.get(1).at()).isEqualTo(T0.plusSeconds(80));
    }

    @Test
    @DisplayName("with no cooldown, leaves the storm at the first observation within the threshold")
    void zeroCooldown() {
        StormGuard guard = guard(Pool.permissiveMaxUnhealthy("2").stormCooldown(Duration.ZERO));

        assertThat(admit(guard, tenWith(3), T0)).isInstanceOf(Refused.class);
        assertThat(admit(guard, tenWith(2), T0.plusSeconds(1)).admitted()).isTrue();
        assertThat(guard.inStorm()).isFalse();
    }
}
