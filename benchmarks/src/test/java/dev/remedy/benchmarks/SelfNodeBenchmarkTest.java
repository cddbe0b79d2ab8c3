package dev.remedy.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SelfNodeBenchmarkTest {

    private static final SelfNodeBenchmark.Scenario DEFAULTS = new SelfNodeBenchmark.Scenario("defaults", 6,
            NodeAgentSettings.ofDefaults(), "-");

    @Test
    void theCutOffNodeIsResetByItsWatchdogAndReleasedOnlyAfterItsProcessesAreGone() {
        SelfNodeCluster.Run run = SelfNodeCluster.run(DEFAULTS.settings(), DEFAULTS.nodes(),
                new SelfNodeCluster.Timing(SelfNodeCluster.STEP, Duration.ZERO, SelfNodeBenchmark.MARK_DELAY));

        assertThat(run.fired()).as("the cut-off node's watchdog").isPresent();
        assertThat(run.fired().get()).isGreaterThan(run.cut());
        assertThat(run.released()).as(run.decision()).isPresent();
        assertThat(SelfNodeBenchmark.margin(DEFAULTS, run)).hasValueSatisfying(m -> assertThat(m).isPositive());
        assertThat(run.decision()).contains("watchdog armed");
        assertThat(run.needless()).as("nodes reset that were not cut off").isEmpty();
    }

    @Test
    void aReleaseBeforeTheResetEndsIsASafetyFailure() {
        // Fired at 200 s with the default rebootDuration of 15 s: the processes are gone at 215 s.
        SelfNodeCluster.Run early = new SelfNodeCluster.Run(60, 100, Optional.of(200.0), Optional.of(210.0),
                "assumed", List.of());
        List<String> failures = new ArrayList<>();

        SelfNodeBenchmark.check(DEFAULTS, early, "test", failures);

        assertThat(failures).singleElement().asString().contains("released at 210.0 s").contains("gone at 215.0 s");
    }

    @Test
    void aReleaseWithoutAResetIsASafetyFailureAndAResetOfAnotherNodeIsReported() {
        SelfNodeCluster.Run never = new SelfNodeCluster.Run(60, 100, Optional.empty(), Optional.of(300.0), "assumed",
                List.of("node-3"));
        List<String> failures = new ArrayList<>();

        SelfNodeBenchmark.check(DEFAULTS, never, "test", failures);

        assertThat(failures).hasSize(2);
        assertThat(failures.get(0)).contains("the watchdog never fired");
        assertThat(failures.get(1)).contains("[node-3]");
    }

    @Test
    void selfNodeRemediationsMinimumFollowsItsCalculatorWithItsDefaults() {
        // 3 x (15 s + 5 s) + max(batches x 12 s, 30 s) + 60 s + 30 s; batches: 3 nodes, then max(3, (n - 3) / 10).
        assertThat(SelfNodeBenchmark.snrMinimum(2)).isEqualTo(Duration.ofSeconds(180));
        assertThat(SelfNodeBenchmark.snrMinimum(6)).isEqualTo(Duration.ofSeconds(180));
        assertThat(SelfNodeBenchmark.snrMinimum(50)).isEqualTo(Duration.ofSeconds(60 + 13 * 12 + 90));
    }
}
