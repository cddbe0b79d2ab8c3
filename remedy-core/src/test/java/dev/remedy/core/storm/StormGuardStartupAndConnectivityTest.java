package dev.remedy.core.storm;

import static dev.remedy.core.storm.Pool.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.storm.Admission.Held;
import dev.remedy.core.storm.Admission.Reason;
import dev.remedy.core.storm.Admission.Refused;
import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StormGuard quiet period and connectivity loss")
class StormGuardStartupAndConnectivityTest {

    private final Pool pool = Pool.create().unhealthy(1).healthy(9);

    @Test
    @DisplayName("holds every fence during the quiet period after start, until its last instant")
    void quietPeriod() {
        StormGuard guard = Pool.guard(Pool.permissive().quietPeriod(Duration.ofSeconds(300)).build());
        assertThat(guard.admit(pool.candidate(), pool.view(), T0.plusSeconds(299))).isEqualTo(new Held(Reason.QUIET_PERIOD,
                "engine started at " + T0 + "; quietPeriod PT5M lasts until " + T0.plusSeconds(300),
                Optional.of(T0.plusSeconds(300))));
        assertThat(guard.admit(pool.candidate(), pool.view(), T0.plusSeconds(300)).admitted()).isTrue();
    }

    @Test
    @DisplayName("starts the quiet period at the first observation when started() was never called")
    void implicitStart() {
        StormGuard guard = StormGuard.of(Pool.permissive().quietPeriod(Duration.ofSeconds(60)).build(),
                new SplittableRandom(1));

        guard.observe(pool.view(), T0);

        assertThat(guard.admit(pool.candidate(), pool.view(), T0.plusSeconds(59))).isInstanceOf(Held.class);
        assertThat(guard.admit(pool.candidate(), pool.view(), T0.plusSeconds(60)).admitted()).isTrue();
    }

    @Test
    @DisplayName("a restart of the engine starts a new quiet period")
    void restart() {
        StormGuard guard = Pool.guard(Pool.permissive().quietPeriod(Duration.ofSeconds(60)).build());

        guard.started(T0.plusSeconds(3600));

        assertThat(guard.admit(pool.candidate(), pool.view(), T0.plusSeconds(3630))).isInstanceOfSatisfying(
                Held.class, held -> assertThat(held.retryAt()).contains(T0.plusSeconds(3660)));
    }

    @Test
    @DisplayName("refuses fencing from maxDisconnectedShare of the pool disconnected: 4 of 10 admits, 5 refuses")
    void connectivityLoss() {
        StormGuard guard = Pool.guard(Pool.permissive().maxDisconnectedShare(0.5).build());
        Pool four = Pool.create().disconnected(4).healthy(6);
        Pool five = Pool.create().disconnected(5).healthy(5);

        assertThat(guard.admit("node-0000", four.view(), T0).admitted()).isTrue();
        assertThat(guard.admit("node-0000", five.view(), T0)).isEqualTo(new Refused(Reason.CONNECTIVITY_LOSS,
                "5 of 10 nodes disconnected (50%) reaches maxDisconnectedShare 50%: the management side may be the "
                        + "broken one"));
    }

    @Test
    @DisplayName("a share of 1 refuses only when every node is disconnected")
    void wholeShare() {
        StormGuard guard = Pool.guard(Pool.permissive().maxDisconnectedShare(1.0).build());
        Pool most = Pool.create().disconnected(9).healthy(1);
        Pool all = Pool.create().disconnected(3);

        assertThat(guard.admit("node-0000", most.view(), T0).admitted()).isTrue();
        assertThat(guard.admit("node-0000", all.view(), T0)).isInstanceOf(Refused.class);
    }
}
