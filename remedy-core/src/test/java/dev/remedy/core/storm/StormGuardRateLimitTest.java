package dev.remedy.core.storm;

import static dev.remedy.core.storm.Pool.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.storm.Admission.Held;
import dev.remedy.core.storm.Admission.Reason;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StormGuard rate limits")
class StormGuardRateLimitTest {

    private static final Duration WINDOW = Duration.ofMinutes(10);

    private final Pool pool = Pool.create().unhealthy(2).healthy(8);

    @Test
    @DisplayName("holds a fence once the window holds fencesPerWindow fences, until the oldest slides out")
    void fencesSlide() {
        StormGuard guard = Pool.guard(Pool.permissive().fencesPerWindow(3, WINDOW).build());
        String node = pool.candidate();
        guard.recordFence("a", T0);
        guard.recordFence("b", T0.plusSeconds(60));
        guard.recordFence("c", T0.plusSeconds(120));
        guard.recordFinished("a");
        guard.recordFinished("b");
        guard.recordFinished("c");

        assertThat(guard.admit(node, pool.view(), T0.plusSeconds(180))).isEqualTo(new Held(Reason.FENCE_RATE,
                "3 fences in the last PT10M reach fencesPerWindow 3 per PT10M", Optional.of(T0.plus(WINDOW))));
        assertThat(guard.admit(node, pool.view(), T0.plus(WINDOW).minusNanos(1))).isInstanceOf(Held.class);
        assertThat(guard.admit(node, pool.view(), T0.plus(WINDOW)).admitted()).isTrue();

        guard.recordFence(node, T0.plus(WINDOW));
        guard.recordFinished(node);
        assertThat(guard.admit(node, pool.view(), T0.plus(WINDOW).plusSeconds(1))).isInstanceOfSatisfying(Held.class,
                held -> assertThat(held.retryAt()).contains(T0.plusSeconds(60).plus(WINDOW)));
    }

    @Test
    @DisplayName("counts fences recorded through admitAndRecord")
    void admitAndRecordCounts() {
        StormGuard guard = Pool.guard(Pool.permissive().fencesPerWindow(1, WINDOW).build());

        assertThat(guard.admitAndRecord("node-0000", pool.view(), T0).admitted()).isTrue();
        assertThat(guard.admit("node-0001", pool.view(), T0.plusSeconds(1))).isInstanceOfSatisfying(Held.class,
                held -> assertThat(held.reason()).isEqualTo(Reason.FENCE_RATE));
    }

    @Test
    @DisplayName("takes pod deletions all or nothing within podDeletionsPerWindow and frees them as the window slides")
    void podDeletionsSlide() {
        StormGuard guard = Pool.guard(Pool.permissive().podDeletionsPerWindow(100, WINDOW).build());

        assertThat(guard.tryRecordPodDeletions(60, T0)).isTrue();
        assertThat(guard.tryRecordPodDeletions(41, T0.plusSeconds(60))).isFalse();
        assertThat(guard.podDeletionsAvailable(T0.plusSeconds(60))).isEqualTo(40);
        assertThat(guard.tryRecordPodDeletions(40, T0.plusSeconds(60))).isTrue();
        assertThat(guard.podDeletionsAvailable(T0.plusSeconds(61))).isZero();
        assertThat(guard.podDeletionsAvailable(T0.plus(WINDOW))).isEqualTo(60);
        assertThat(guard.tryRecordPodDeletions(0, T0.plus(WINDOW))).isTrue();
    }

    @Test
    @DisplayName("holds new fences while the pod deletion window is used up")
    void podDeletionsHoldFences() {
        StormGuard guard = Pool.guard(Pool.permissive().podDeletionsPerWindow(10, WINDOW).build());
        guard.tryRecordPodDeletions(10, T0);

        assertThat(guard.admit(pool.candidate(), pool.view(), T0.plusSeconds(5))).isEqualTo(new Held(
                Reason.POD_DELETION_RATE, "10 pod deletions in the last PT10M reach podDeletionsPerWindow 10 per PT10M",
                Optional.of(T0.plus(WINDOW))));
        assertThat(guard.admit(pool.candidate(), pool.view(), T0.plus(WINDOW)).admitted()).isTrue();
    }

    @Test
    @DisplayName("refuses a batch of pod deletions larger than the whole window, naming the limit")
    void batchTooLarge() {
        StormGuard guard = Pool.guard(Pool.permissive().podDeletionsPerWindow(10, WINDOW).build());

        assertThatThrownBy(() -> guard.tryRecordPodDeletions(11, T0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("11 pod deletions").hasMessageContaining("10 per PT10M");
        assertThatThrownBy(() -> guard.tryRecordPodDeletions(-1, T0)).hasMessageContaining("-1");
    }

    @Test
    @DisplayName("without a pod deletion limit every batch may proceed")
    void unlimitedPodDeletions() {
        StormGuard guard = Pool.guard(Pool.permissive().build());

        assertThat(guard.tryRecordPodDeletions(1_000_000, T0)).isTrue();
        assertThat(guard.podDeletionsAvailable(T0)).isEqualTo(Integer.MAX_VALUE);
    }
}
