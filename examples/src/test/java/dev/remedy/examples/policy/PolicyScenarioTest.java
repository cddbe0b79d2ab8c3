package dev.remedy.examples.policy;

import static dev.remedy.simulation.TimelineEntry.Kind.ALERT;
import static dev.remedy.simulation.TimelineEntry.Kind.DECIDED;
import static dev.remedy.simulation.TimelineEntry.Kind.ESCALATED;
import static dev.remedy.simulation.TimelineEntry.Kind.FENCED;
import static dev.remedy.simulation.TimelineEntry.Kind.POWERED_ON;
import static dev.remedy.simulation.TimelineEntry.Kind.RECOVERED;
import static dev.remedy.simulation.TimelineEntry.Kind.REFUSED;
import static dev.remedy.simulation.TimelineEntry.Kind.RELEASED;
import static dev.remedy.simulation.TimelineEntry.Kind.SHARED_INFRASTRUCTURE;
import static dev.remedy.simulation.TimelineEntry.Kind.STARTED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.PolicyLoader;
import dev.remedy.simulation.PolicySimulation;
import dev.remedy.simulation.Scenario;
import dev.remedy.simulation.ScenarioReader;
import dev.remedy.simulation.Timeline;
import dev.remedy.simulation.TimelineEntry;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A policy unit test: given my policy file, this scenario file, expect these fences (and refusals) at these times.
 * The scenarios are in {@code src/test/resources/scenarios}; {@code remedy simulate POLICY SCENARIO} prints the same
 * timelines.
 */
@DisplayName("my remediation policy")
class PolicyScenarioTest {

    private static Path file(String name) {
        try {
            return Path.of(PolicyScenarioTest.class.getResource("/scenarios/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Timeline simulate(String policies, String scenario) {
        List<Policy> mine = new PolicyLoader().load(file(policies)).policies();
        Scenario world = new ScenarioReader().read(file(scenario));
        return PolicySimulation.run(mine, world);
    }

    private static Duration minutes(long minutes, long seconds) {
        return Duration.ofMinutes(minutes).plusSeconds(seconds);
    }

    @Test
    @DisplayName("fences a hung node once, 5.5 minutes after it hung, and has it back 3 minutes later")
    void singleNodeFailure() {
        Timeline timeline = simulate("policies.yaml", "single-node-failure.yaml");

        assertThat(timeline.fencedNodes()).containsExactly("node-3");
        assertThat(timeline.fencesOf("node-3")).singleElement()
                .satisfies(fence -> assertThat(fence.at()).isBetween(minutes(6, 30), minutes(6, 35)));
        assertThat(timeline.kinds("node-3")).containsSubsequence(STARTED, DECIDED, FENCED, RELEASED, POWERED_ON,
                RECOVERED);
        assertThat(timeline.firstAt("node-3", RECOVERED).orElseThrow()).isLessThan(minutes(10, 0));
    }

    @Test
    @DisplayName("fences nobody when a rack switch fails")
    void rackSwitchFailure() {
        Timeline timeline = simulate("policies.yaml", "rack-switch-failure.yaml");

        assertThat(timeline.of(FENCED)).isEmpty();
        assertThat(timeline.of(SHARED_INFRASTRUCTURE)).extracting(TimelineEntry::node)
                .containsExactly("node-4", "node-5", "node-6", "node-7");
    }

    @Test
    @DisplayName("refuses to fence while 60% of the cluster is unreachable, and fences the hung node after the cooldown")
    void sixtyPercentUnreachable() {
        Timeline timeline = simulate("policies.yaml", "sixty-percent-unreachable.yaml");

        assertThat(timeline.of(REFUSED)).hasSize(6);
        assertThat(timeline.fencedNodes()).containsExactly("node-5");
        assertThat(timeline.firstAt("node-5", STARTED)).hasValue(minutes(15, 0));
    }

    @Test
    @DisplayName("keeps one remediation for a node that flaps after its fence")
    void flappingNode() {
        Timeline timeline = simulate("policies.yaml", "flapping-node.yaml");

        assertThat(timeline.of("node-2", STARTED)).hasSize(1);
        assertThat(timeline.fencesOf("node-2")).hasSize(1);
        assertThat(timeline.kinds("node-2")).doesNotContain(ESCALATED);
        assertThat(timeline.firstAt("node-2", RECOVERED)).hasValue(minutes(13, 0));
    }

    @Test
    @DisplayName("escalates to a reboot when the BMC never answers, never calling the timeout a fence")
    void bmcNeverAnswers() {
        Timeline timeline = simulate("policies.yaml", "bmc-never-answers.yaml");

        assertThat(timeline.of(FENCED)).isEmpty();
        assertThat(timeline.of("node-4", ESCALATED)).singleElement()
                .satisfies(e -> assertThat(e.at()).isEqualTo(minutes(16, 0)));
        assertThat(timeline.of("node-4", ALERT)).hasSize(1);
        assertThat(timeline.firstAt("node-4", RECOVERED)).hasValue(minutes(20, 0));
    }

    @Test
    @DisplayName("fences only one node of a two-node cluster, and only once the other is back")
    void twoNodeFenceRace() {
        Timeline timeline = simulate("two-node-policies.yaml", "two-node-fence-race.yaml");

        assertThat(timeline.of(REFUSED)).extracting(TimelineEntry::node).containsExactly("node-0", "node-1");
        assertThat(timeline.fencedNodes()).containsExactly("node-1");
        assertThat(timeline.firstAt("node-1", DECIDED)).hasValue(minutes(9, 0));
    }
}
