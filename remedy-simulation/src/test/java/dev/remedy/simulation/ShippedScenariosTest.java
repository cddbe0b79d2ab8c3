package dev.remedy.simulation;

import static dev.remedy.simulation.Scenario.clear;
import static dev.remedy.simulation.Scenario.fault;
import static dev.remedy.simulation.TimelineEntry.Kind.ALERT;
import static dev.remedy.simulation.TimelineEntry.Kind.CANCELLED;
import static dev.remedy.simulation.TimelineEntry.Kind.DECIDED;
import static dev.remedy.simulation.TimelineEntry.Kind.DOMAIN_CLEARED;
import static dev.remedy.simulation.TimelineEntry.Kind.DOMAIN_SUSPECTED;
import static dev.remedy.simulation.TimelineEntry.Kind.ESCALATED;
import static dev.remedy.simulation.TimelineEntry.Kind.FENCED;
import static dev.remedy.simulation.TimelineEntry.Kind.FENCE_FINISHED;
import static dev.remedy.simulation.TimelineEntry.Kind.HELD;
import static dev.remedy.simulation.TimelineEntry.Kind.OPERATION_FAILED;
import static dev.remedy.simulation.TimelineEntry.Kind.POWERED_ON;
import static dev.remedy.simulation.TimelineEntry.Kind.READY;
import static dev.remedy.simulation.TimelineEntry.Kind.REBOOTED;
import static dev.remedy.simulation.TimelineEntry.Kind.RECOVERED;
import static dev.remedy.simulation.TimelineEntry.Kind.REFUSED;
import static dev.remedy.simulation.TimelineEntry.Kind.RELEASED;
import static dev.remedy.simulation.TimelineEntry.Kind.SHARED_INFRASTRUCTURE;
import static dev.remedy.simulation.TimelineEntry.Kind.STARTED;
import static dev.remedy.simulation.TimelineEntry.Kind.STORM_ENDED;
import static dev.remedy.simulation.TimelineEntry.Kind.STORM_STARTED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.storm.Threshold;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The six scenarios remedy ships, as policy tests: given the policy, this scenario, expect these fences, refusals
 * and recoveries at these times. The same scenarios are files in the examples module.
 */
@DisplayName("the shipped scenarios")
class ShippedScenariosTest {

    private static Duration at(String minutesSeconds) {
        String[] parts = minutesSeconds.split(":");
        return Duration.ofMinutes(Long.parseLong(parts[0])).plusSeconds(Long.parseLong(parts[1]));
    }

    @Test
    @DisplayName("a single hung node is fenced 5 minutes after it stopped answering, released, powered on and recovered")
    void singleNodeFailure() {
        Scenario scenario = Scenario.builder().name("single node failure").nodes(6)
                .at("1m", fault(Fault.HANG, "node-3"))
                .runFor("20m").build();

        Timeline timeline = PolicySimulation.run(List.of(Policies.fencing()), scenario);

        assertThat(timeline.fencedNodes()).containsExactly("node-3");
        assertThat(timeline.firstAt("node-3", STARTED)).hasValue(at("6:00"));
        assertThat(timeline.fencesOf("node-3")).singleElement().satisfies(fence -> {
            assertThat(fence.at()).as("the 30 s hold; the policy sets no fence-race delay").isEqualTo(at("6:30"));
            assertThat(fence.reason()).contains("STATUS of bmc reads OFF");
            assertThat(fence.remedy()).isEqualTo("fence");
        });
        assertThat(timeline.kinds("node-3")).containsSubsequence(STARTED, DECIDED, FENCED, RELEASED, POWERED_ON,
                READY, FENCE_FINISHED, RECOVERED);
        Duration fenced = timeline.firstAt("node-3", FENCED).orElseThrow();
        assertThat(timeline.firstAt("node-3", READY)).as("Ready after the 2 minute boot")
                .hasValue(fenced.plus(Scenario.DEFAULT_BOOT_TIME));
        assertThat(timeline.firstAt("node-3", RECOVERED)).as("healthy for the policy's minute")
                .hasValue(fenced.plus(Scenario.DEFAULT_BOOT_TIME).plusMinutes(1));
        assertThat(timeline.of(ALERT)).isEmpty();
    }

    @Test
    @DisplayName("a failed rack switch fences nobody: the rack is suspected as shared infrastructure, then cleared")
    void rackSwitchFailure() {
        Scenario scenario = Scenario.builder().name("rack switch failure").nodes(12).label("rack", i -> "r" + (i / 4))
                .at("2m", fault(Fault.NETWORK, "rack=r1"))
                .at("12m", clear("rack=r1"))
                .runFor("20m").build();
        StormSettings storm = StormSettings.custom().failureDomainLabel("rack").build();

        Timeline timeline = PolicySimulation.run(List.of(Policies.workers(List.of(Policies.FENCE), storm)), scenario);

        assertThat(timeline.of(DECIDED)).isEmpty();
        assertThat(timeline.of(FENCED)).isEmpty();
        assertThat(timeline.of(SHARED_INFRASTRUCTURE)).extracting(TimelineEntry::node)
                .containsExactly("node-4", "node-5", "node-6", "node-7");
        assertThat(timeline.of(SHARED_INFRASTRUCTURE)).allSatisfy(e -> {
            assertThat(e.at()).isEqualTo(at("7:00"));
            assertThat(e.reason()).contains("rack=r1", "4 of its 4 nodes");
        });
        assertThat(timeline.of("rack=r1")).extracting(TimelineEntry::kind, TimelineEntry::at)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(DOMAIN_SUSPECTED, at("7:00")),
                        org.assertj.core.groups.Tuple.tuple(DOMAIN_CLEARED, at("12:00")));
        assertThat(timeline.of(READY)).hasSize(4).allSatisfy(e -> assertThat(e.at()).isEqualTo(at("12:00")));
    }

    @Test
    @DisplayName("60 % of a cluster unreachable is refused as a storm; after the cooldown the one hung node is fenced")
    void sixtyPercentUnreachable() {
        Scenario scenario = Scenario.builder().name("60% unreachable").nodes(10)
                .at("1m", fault(Fault.NETWORK, "node-0..node-4"))
                .at("1m", fault(Fault.HANG, "node-5"))
                .at("10m", clear("node-0..node-4"))
                .runFor("25m").build();

        Timeline timeline = PolicySimulation.run(List.of(Policies.fencing()), scenario);

        assertThat(timeline.of("pool")).extracting(TimelineEntry::kind, TimelineEntry::at)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(STORM_STARTED, at("6:00")),
                        org.assertj.core.groups.Tuple.tuple(STORM_ENDED, at("15:00")));
        assertThat(timeline.of(REFUSED)).hasSize(6).allSatisfy(e -> {
            assertThat(e.at()).isEqualTo(at("6:00"));
            assertThat(e.reason()).contains("6 of 10 nodes disconnected");
        });
        assertThat(timeline.of("node-5", HELD)).singleElement().satisfies(e -> {
            assertThat(e.at()).isEqualTo(at("10:00"));
            assertThat(e.reason()).contains("stormCooldown");
        });
        assertThat(timeline.fencedNodes()).containsExactly("node-5");
        assertThat(timeline.firstAt("node-5", STARTED)).hasValue(at("15:00"));
        assertThat(timeline.firstAt("node-5", RECOVERED)).isPresent();
    }

    @Test
    @DisplayName("a node flapping Unknown/False after its fence keeps one remediation: no second fence, no escalation")
    void flappingNode() {
        Scenario scenario = Scenario.builder().name("flapping node").nodes(4)
                .at("1m", fault(Fault.HANG, "node-2"))
                .at("7m", fault(Fault.FLAP, "node-2"))
                .at("12m", clear("node-2"))
                .runFor("25m").build();

        Timeline timeline = PolicySimulation.run(List.of(Policies.workers(List.of(Policies.FENCE, Policies.REBOOT),
                StormSettings.ofDefaults())), scenario);

        assertThat(timeline.of("node-2", STARTED)).singleElement()
                .satisfies(e -> assertThat(e.at()).isEqualTo(at("6:00")));
        assertThat(timeline.fencesOf("node-2")).hasSize(1);
        assertThat(timeline.of("node-2", DECIDED)).hasSize(1);
        assertThat(timeline.kinds("node-2")).doesNotContain(ESCALATED, CANCELLED);
        assertThat(timeline.firstAt("node-2", READY)).as("only once the flapping is cleared").hasValue(at("12:00"));
        assertThat(timeline.firstAt("node-2", RECOVERED)).hasValue(at("13:00"));
    }

    @Test
    @DisplayName("a BMC that never answers: the fence times out, is cancelled with an alert, and the next remedy reboots the node")
    void bmcNeverAnswers() {
        Scenario scenario = Scenario.builder().name("BMC never answers").nodes(6)
                .bmc("node-4", BmcBehaviour.HANGS)
                .at("1m", fault(Fault.HANG, "node-4"))
                .runFor("30m").build();

        Timeline timeline = PolicySimulation.run(List.of(Policies.workers(List.of(Policies.FENCE, Policies.REBOOT),
                StormSettings.ofDefaults())), scenario);

        assertThat(timeline.of(FENCED)).as("a timeout is never a fence").isEmpty();
        assertThat(timeline.of(RELEASED)).isEmpty();
        assertThat(timeline.of("node-4", OPERATION_FAILED)).isNotEmpty()
                .allSatisfy(e -> assertThat(e.reason()).contains("bmc off TIMED_OUT"));
        assertThat(timeline.of("node-4", ESCALATED)).singleElement().satisfies(e -> {
            assertThat(e.at()).as("the fence remedy's 10 minutes after it started at 6:00").isEqualTo(at("16:00"));
            assertThat(e.remedy()).isEqualTo("reboot");
        });
        assertThat(timeline.of("node-4", ALERT)).singleElement()
                .satisfies(e -> assertThat(e.reason()).contains("may have been powered off"));
        assertThat(timeline.firstAt("node-4", REBOOTED)).hasValue(at("17:00"));
        assertThat(timeline.of("node-4", RECOVERED)).singleElement().satisfies(e -> {
            assertThat(e.at()).isEqualTo(at("20:00"));
            assertThat(e.remedy()).isEqualTo("reboot");
        });
    }

    @Test
    @DisplayName("a two-node cluster never fences while both nodes are lost; once one is back only the other is fenced")
    void twoNodeFenceRace() {
        Scenario scenario = Scenario.builder().name("two-node fence race").nodes(2)
                .at("1m", fault(Fault.NETWORK, "node-0"))
                .at("1m", fault(Fault.HANG, "node-1"))
                .at("8m", clear("node-0"))
                .runFor("20m").build();
        StormSettings twoNodes = StormSettings.custom().minHealthy(Threshold.nodes(1)).maxDisconnectedShare(1.0)
                .stormCooldown(Duration.ofMinutes(1)).maxConcurrent(1).build();

        Timeline timeline = PolicySimulation.run(List.of(Policies.workers(List.of(Policies.FENCE), twoNodes)),
                scenario);

        assertThat(timeline.of(REFUSED)).extracting(TimelineEntry::node).containsExactly("node-0", "node-1");
        assertThat(timeline.of(REFUSED)).allSatisfy(e -> assertThat(e.reason()).contains("2 of 2 nodes disconnected"));
        assertThat(timeline.of(DECIDED)).extracting(TimelineEntry::node).containsExactly("node-1");
        assertThat(timeline.fencedNodes()).containsExactly("node-1");
        assertThat(timeline.firstAt("node-1", STARTED)).as("after the one-minute cooldown").hasValue(at("9:00"));
        assertThat(timeline.firstAt("node-1", RECOVERED)).isPresent();
    }

    @Test
    @DisplayName("30 simulated minutes of 100 nodes: the hung nodes fenced, the cut-off rack suspected, not fenced")
    void hundredNodes() {
        Scenario scenario = Scenario.builder().nodes(100).label("rack", i -> "r" + (i / 10))
                .at("1m", fault(Fault.HANG, "node-3..node-5"))
                .at("2m", fault(Fault.NETWORK, "rack=r9"))
                .at("10m", clear("rack=r9"))
                .bmc("node-7", BmcBehaviour.HANGS)
                .runFor("30m").build();
        List<dev.remedy.core.policy.Policy> policies = List.of(Policies.workers(List.of(Policies.FENCE),
                StormSettings.custom().failureDomainLabel("rack").build()));
        Timeline timeline = PolicySimulation.run(policies, scenario);

        assertThat(timeline.fencedNodes()).containsExactly("node-3", "node-4", "node-5");
        assertThat(timeline.of(SHARED_INFRASTRUCTURE)).hasSize(10);
    }
}
