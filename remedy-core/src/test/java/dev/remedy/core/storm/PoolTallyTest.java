package dev.remedy.core.storm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A tally kept node by node counts exactly what a view built from the whole list counts. */
class PoolTallyTest {

    @Test
    @DisplayName("after random puts, replacements and removals the tally's view (also with remediations added) equals"
            + " a view of the same nodes, down to the domains storm protection reads")
    void tallyEqualsFullCount() {
        SplittableRandom random = new SplittableRandom(42);
        PoolTally tally = new PoolTally();
        Map<String, NodeView> current = new HashMap<>();
        for (int step = 0; step < 5_000; step++) {
            String name = "n" + random.nextInt(60);
            if (random.nextInt(5) == 0) {
                tally.remove(name);
                current.remove(name);
            } else {
                NodeView view = new NodeView(name, random.nextInt(4) == 0, random.nextBoolean(),
                        random.nextInt(3) == 0, random.nextInt(4) == 0,
                        random.nextInt(5) == 0 ? Optional.empty() : Optional.of("r" + random.nextInt(6)),
                        random.nextInt(3));
                tally.put(view);
                current.put(name, view);
            }
            if (step % 50 == 0) {
                assertSame(tally.view(), PoolView.of(new ArrayList<>(current.values())));
                List<String> extra = List.of("n" + random.nextInt(60), "n" + random.nextInt(60), "absent");
                assertSame(tally.view().withRemediating(extra),
                        PoolView.of(new ArrayList<>(current.values())).withRemediating(extra));
            }
        }
        assertSame(tally.view(), PoolView.of(new ArrayList<>(current.values())));
        assertThat(tally.size()).isEqualTo(current.size());
    }

    private static void assertSame(PoolView incremental, PoolView full) {
        assertThat(List.of(incremental.total(), incremental.healthy(), incremental.unhealthy(),
                incremental.remediating(), incremental.disconnected(), incremental.controlPlaneTotal(),
                incremental.controlPlaneHealthy(), incremental.controlPlaneRemediating()))
                .isEqualTo(List.of(full.total(), full.healthy(), full.unhealthy(), full.remediating(),
                        full.disconnected(), full.controlPlaneTotal(), full.controlPlaneHealthy(),
                        full.controlPlaneRemediating()));
        assertThat(incremental.domains()).containsExactlyInAnyOrderElementsOf(full.domains());
        for (int min = 1; min <= 4; min++) {
            int atLeast = min;
            assertThat(incremental.domainsNotHealthyAtLeast(min)).as("domains with at least %d not healthy", min)
                    .containsExactlyInAnyOrderElementsOf(full.domains().stream()
                            .filter(d -> d.notHealthy() >= atLeast).toList())
                    .containsExactlyInAnyOrderElementsOf(full.domainsNotHealthyAtLeast(min));
        }
        for (int i = 0; i < 60; i++) {
            String name = "n" + i;
            assertThat(incremental.hasHighestPriority(name)).as(name).isEqualTo(full.hasHighestPriority(name));
            assertThat(incremental.node(name)).isEqualTo(full.node(name));
        }
    }
}
