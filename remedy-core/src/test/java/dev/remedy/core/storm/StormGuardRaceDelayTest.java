package dev.remedy.core.storm;

import static dev.remedy.core.storm.Pool.T0;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StormGuard fence-race delay")
class StormGuardRaceDelayTest {

    private static final PoolView POOL = Pool.create().unhealthy(1).healthy(3).view();

    private static List<Duration> delays(StormSettings settings, RandomGenerator random, int count) {
        StormGuard guard = new StormGuard(settings, random, (n, p) -> Optional.empty(), StormListener.NONE);
        guard.started(T0);
        List<Duration> delays = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Admission admission = guard.admit("node-0000", POOL, T0);
            delays.add(((Admission.Admitted) admission).raceDelay());
        }
        return delays;
    }

    @Test
    @DisplayName("is the base plus a random extra within 0..max, spread over the range")
    void bounds() {
        StormSettings settings = Pool.permissive().raceDelay(Duration.ofSeconds(2), Duration.ofSeconds(3)).build();

        List<Duration> delays = delays(settings, new SplittableRandom(42), 1000);

        assertThat(delays).allSatisfy(d -> assertThat(d).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(5)));
        assertThat(delays.stream().min(Duration::compareTo).orElseThrow()).isLessThan(Duration.ofMillis(2100));
        assertThat(delays.stream().max(Duration::compareTo).orElseThrow()).isGreaterThan(Duration.ofMillis(4900));
    }

    @Test
    @DisplayName("is the same sequence for the same seed")
    void deterministic() {
        StormSettings settings = Pool.permissive().raceDelay(Duration.ZERO, Duration.ofSeconds(10)).build();

        List<Duration> first = delays(settings, new SplittableRandom(7), 20);

        assertThat(delays(settings, new SplittableRandom(7), 20)).isEqualTo(first);
        assertThat(first).doesNotHaveDuplicates();
    }

    @Test
    @DisplayName("does not draw a random number when there is no random extra")
    void noRandomWithoutMax() {
        StormSettings settings = Pool.permissive().raceDelay(Duration.ofSeconds(1), Duration.ZERO).build();
        RandomGenerator forbidden = () -> {
            throw new AssertionError("random drawn");
        };

        assertThat(delays(settings, forbidden, 3)).containsOnly(Duration.ofSeconds(1));
    }

    @Test
    @DisplayName("adds the priority delay only to the node whose priority is above every other's")
    void priorityDelay() {
        StormSettings settings = Pool.permissive().raceDelay(Duration.ofSeconds(1), Duration.ZERO)
                .priorityDelay(Duration.ofSeconds(15)).build();
        StormGuard guard = Pool.guard(settings);
        PoolView unique = PoolView.of(new NodeView("a", false, true, false, false, Optional.empty(), 10),
                new NodeView("b", false, true, false, false, Optional.empty(), 1));
        PoolView tie = PoolView.of(new NodeView("a", false, true, false, false, Optional.empty(), 10),
                new NodeView("b", false, true, false, false, Optional.empty(), 10));

        assertThat(guard.admit("a", unique, T0)).isEqualTo(new Admission.Admitted(Duration.ofSeconds(16)));
        assertThat(guard.admit("b", unique, T0)).isEqualTo(new Admission.Admitted(Duration.ofSeconds(1)));
        assertThat(guard.admit("a", tie, T0)).isEqualTo(new Admission.Admitted(Duration.ofSeconds(1)));
    }
}
