package dev.remedy.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.config.ConfigProblem;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("scenario files")
class ScenarioReaderTest {

    private final ScenarioReader reader = new ScenarioReader();

    @Test
    @DisplayName("read groups with labels, BMC behaviours, events in time order and settings")
    void reads() {
        Scenario scenario = reader.parse("""
                name: racks
                nodes:
                  - {names: "node-0..node-1,extra", labels: {rack: r0}}
                  - {names: node-2, labels: {rack: r1}}
                bmc: {rack=r1: lies}
                events:
                  - {at: 5m, clear: rack=r0}
                  - {at: 30s, fault: hang, nodes: "node-0,node-2"}
                  - {at: 1m, bmc: hangs, nodes: all}
                run_for: 10m
                settings: {tick: 10s, boot_time: 1m, flap_period: 30s, remediation_delay: 2m}
                """, "racks.yaml");

        assertThat(scenario.nodes()).containsOnlyKeys("node-0", "node-1", "extra", "node-2");
        assertThat(scenario.nodes().get("extra")).containsEntry("rack", "r0");
        assertThat(scenario.bmc("node-2")).isEqualTo(BmcBehaviour.LIES);
        assertThat(scenario.events()).extracting(Scenario.Event::at)
                .containsExactly(Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5));
        assertThat(scenario.events().get(0).step()).isEqualTo(new ScenarioStep.StartFault(Fault.HANG,
                NodeSelection.of("node-0,node-2")));
        assertThat(scenario.duration()).isEqualTo(Duration.ofMinutes(10));
        assertThat(scenario.tick()).isEqualTo(Duration.ofSeconds(10));
        assertThat(scenario.remediationDelay()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    @DisplayName("refuse every problem at once, each with its path")
    void refusesEveryProblem() {
        assertThatThrownBy(() -> reader.parse("""
                nodes: 3
                bmc: {node-1: sulks}
                events:
                  - {at: 1m, fault: hang}
                  - {at: 2m, fault: network, clear: node-1, nodes: node-1}
                  - {at: 3m, clear: node-0..node-7}
                  - {at: 3m, bmc: ok, nodes: zone=z1}
                  - {at: 1h, fault: dead, nodes: node-1}
                settings: {tik: 5s}
                """, "bad.yaml"))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.issues())
                        .extracting(ConfigProblem::path).containsExactly("bmc.node-1", "events[0].nodes",
                                "events[1]", "events[2].clear", "events[3].nodes", "events[4].at", "settings.tik"));
    }

    @Test
    @DisplayName("refuse a label key or value that Kubernetes refuses, in a group's labels and in a selection")
    void refusesBadLabels() {
        assertThatThrownBy(() -> reader.parse("""
                nodes:
                  - {names: node-0..node-1, labels: {"-rack": r0}}
                  - {names: node-2, labels: {rack: "r 1"}}
                events:
                  - {at: 1m, fault: hang, nodes: "-zone=z1"}
                  - {at: 2m, fault: hang, nodes: "zone=z 1"}
                """, "labels.yaml"))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.issues())
                        .extracting(ConfigProblem::toString).satisfiesExactly(
                                issue -> assertThat(issue).startsWith("labels.yaml:nodes[0].labels.-rack: '-rack' is "
                                        + "not a label key: "),
                                issue -> assertThat(issue).startsWith("labels.yaml:nodes[1].labels.rack: 'r 1' is not "
                                        + "a label value: "),
                                issue -> assertThat(issue).startsWith("labels.yaml:events[0].nodes: '-zone=z1' of node "
                                        + "selection '-zone=z1' is not a label KEY=VALUE: '-zone' is not a label key"),
                                issue -> assertThat(issue).startsWith("labels.yaml:events[1].nodes: 'zone=z 1' of node "
                                        + "selection 'zone=z 1' is not a label KEY=VALUE: 'z 1' is not a label value")));
    }

    @Test
    @DisplayName("refuse an event after the end of the simulation")
    void eventAfterEnd() {
        assertThatThrownBy(() -> reader.parse("""
                nodes: 2
                events: [{at: 1h, fault: dead, nodes: node-1}]
                run_for: 30m
                """, "late.yaml"))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.issues()).singleElement()
                        .hasToString("late.yaml:events[0].at: is 1h, after the end of the simulation (run_for 30m); give "
                                + "a time within run_for, or a longer run_for"));
    }

    @DisplayName("refuse a tick longer than the run, a runaway number of ticks and durations over their limit")
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        'run_for: 1m\\nsettings: {tick: 2m}'                   | settings.tick              | longer than run_for (1m)
        'run_for: 7d\\nsettings: {tick: 1ms}'                  | settings.tick              | 604800000 ticks
        'run_for: P999999999999D'                             | run_for                    | longer than 7d
        'run_for: 1h\\nsettings: {boot_time: PT2562047788015215H}' | settings.boot_time    | longer than 7d
        'run_for: 1h\\nsettings: {remediation_delay: 99999999999d}' | settings.remediation_delay | longer than 7d
        'events: [{at: P999999999999D, fault: dead, nodes: node-1}]' | events[0].at        | longer than 7d
        'run_for: 0s'                                         | run_for                    | is zero; give a positive duration
        'settings: {flap_period: 0s}'                         | settings.flap_period       | is zero; give a positive duration
        """)
    void refusesTime(String yaml, String path, String message) {
        assertThatThrownBy(() -> reader.parse("nodes: 2\n" + yaml.replace("\\n", "\n") + "\n", "time.yaml"))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.issues()).singleElement()
                        .satisfies(issue -> {
                            assertThat(issue.path()).isEqualTo(path);
                            assertThat(issue.message()).contains(message);
                        }));
    }

    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @DisplayName("refuse node ranges longer than the node limit before expanding them, in groups and in selections")
    void refusesHugeRanges() {
        assertThatThrownBy(() -> reader.parse("""
                nodes:
                  - {names: node-0..node-2000000}
                  - {names: big-0..big-99999999999}
                  - {names: "a-0..a-2999"}
                  - {names: "b-0..b-2999"}
                events:
                  - {at: 1m, clear: c-0..c-2147483647}
                """, "huge.yaml"))
                .isInstanceOfSatisfying(ScenarioException.class, e -> {
                    assertThat(e.issues()).extracting(ConfigProblem::path).containsExactly("nodes[0].names",
                            "nodes[1].names", "nodes[3].names", "events[0].clear");
                    assertThat(e.issues()).allSatisfy(issue -> assertThat(issue.message()).contains("5000"));
                    assertThat(e.issues().get(0).message()).contains("2000001 nodes");
                });
    }

    @Test
    @DisplayName("refuse a syntax error with its line, and an empty document")
    void syntax() {
        assertThatThrownBy(() -> reader.parse("nodes: [1,\n", "broken.yaml"))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("broken.yaml").hasMessageContaining("line");
        assertThatThrownBy(() -> reader.parse("", "empty.yaml"))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("empty");
    }
}
