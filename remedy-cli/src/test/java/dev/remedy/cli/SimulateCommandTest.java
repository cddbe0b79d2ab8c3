package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("remedy simulate")
class SimulateCommandTest {

    @TempDir
    Path dir;

    private static String resource(String name) {
        try {
            return Path.of(SimulateCommandTest.class.getResource("/simulate/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @DisplayName("prints the timeline, one line per entry: time, node, what happened and why, and exits 0")
    void printsTimeline() {
        CliRunner.Result result = new CliRunner().run("simulate", resource("policies.yaml"),
                resource("single-node-failure.yaml"));

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.err()).isEmpty();
        assertThat(result.outLines()).allMatch(line -> line.matches("\\+\\d\\d:\\d\\d  \\S+  [A-Z_]+.*"));
        assertThat(result.outLines()).contains(
                "+01:00  node-3  SCENARIO  fault hang starts (node-3)",
                "+06:00  node-3  STARTED fence  unhealthy: Ready=Unknown for at least PT5M");
        assertThat(result.outLines()).filteredOn(line -> line.contains("  FENCED fence  ")).singleElement()
                .asString().startsWith("+06:3").contains("node-3", "STATUS of bmc reads OFF");
        assertThat(result.outLines()).last().asString().contains("node-3  RECOVERED fence");
    }

    @Test
    @DisplayName("applies the policy's storm settings: a failed rack switch fences nobody")
    void stormProtection() {
        CliRunner.Result result = new CliRunner().run("simulate", resource("policies.yaml"),
                resource("rack-switch-failure.yaml"));

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).filteredOn(line -> line.contains("SHARED_INFRASTRUCTURE")).hasSize(4);
        assertThat(result.out()).doesNotContain("FENCED");

        CliRunner.Result unprotected = new CliRunner().run("simulate", "--no-storm-protection",
                resource("policies.yaml"), resource("rack-switch-failure.yaml"));
        assertThat(unprotected.outLines()).filteredOn(line -> line.contains("  FENCED ")).hasSize(4);
    }

    @Test
    @DisplayName("a bad scenario is one error line naming every problem with its path, exit 3")
    void badScenario() throws IOException {
        Path scenario = Files.writeString(dir.resolve("bad.yaml"), """
                nodes: 3
                events:
                  - {at: soon, fault: hang, nodes: node-1}
                  - {at: 2m, fault: melt, nodes: node-9}
                run_fro: 10m
                """);

        CliRunner.Result result = new CliRunner().run("simulate", resource("policies.yaml"), scenario.toString());

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.out()).isEmpty();
        assertThat(result.errLines()).singleElement().asString()
                .startsWith("remedy: invalid scenario: ")
                .contains("events[0].at: 'soon' is not a duration")
                .contains("events[1].fault: 'melt' is not one of hang, network, dead, flap")
                .contains("events[1].nodes: 'node-9'", "does not exist")
                .contains("run_fro: is not a key here; did you mean 'run_for'?");
    }

    @Test
    @DisplayName("a bad policy file is one error line naming its problems, exit 3")
    void badPolicy() throws IOException {
        Path policy = Files.writeString(dir.resolve("policy.yaml"), "policies: []\n");

        CliRunner.Result result = new CliRunner().run("simulate", policy.toString(),
                resource("single-node-failure.yaml"));

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.errLines()).singleElement().asString().startsWith("remedy: invalid policies: ")
                .contains("policy.yaml:policies");
    }

    @Test
    @DisplayName("a missing file is one error line naming it, exit 3")
    void missingFile() {
        CliRunner.Result result = new CliRunner().run("simulate", resource("policies.yaml"),
                dir.resolve("nowhere.yaml").toString());

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.errLines()).singleElement().asString().contains("nowhere.yaml", "cannot read the file");
    }
}
