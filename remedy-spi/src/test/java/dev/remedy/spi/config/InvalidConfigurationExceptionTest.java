package dev.remedy.spi.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.RemedyException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ConfigProblem and InvalidConfigurationException")
class InvalidConfigurationExceptionTest {

    private static final ConfigProblem PORT = new ConfigProblem("port", "'abc' is not a whole number",
            "give a whole number, e.g. 623");
    private static final ConfigProblem IP = new ConfigProblem("ip", "is required but was not given", "give text");

    @Test
    @DisplayName("a problem reads as: parameter 'x': problem; hint")
    void problemToString() {
        assertThat(PORT).hasToString("parameter 'port': 'abc' is not a whole number; give a whole number, e.g. 623");
    }

    @Test
    @DisplayName("a problem needs every field")
    void problemNulls() {
        assertThatThrownBy(() -> new ConfigProblem(null, "p", "h"))
                .isInstanceOf(NullPointerException.class).hasMessage("parameter");
        assertThatThrownBy(() -> new ConfigProblem("x", null, "h"))
                .isInstanceOf(NullPointerException.class).hasMessage("problem");
        assertThatThrownBy(() -> new ConfigProblem("x", "p", null))
                .isInstanceOf(NullPointerException.class).hasMessage("hint");
    }

    @Test
    @DisplayName("an agent's problem has no source and its parameter as path")
    void agentProblem() {
        assertThat(PORT.source()).isEmpty();
        assertThat(PORT.path()).isEqualTo("port");
        assertThat(PORT.message()).isEqualTo("'abc' is not a whole number; give a whole number, e.g. 623");
    }

    @Test
    @DisplayName("a problem in a file reads as: source:path: message, or source: message for the whole document")
    void problemInAFile() {
        ConfigProblem atPath = ConfigProblem.in("fence.yaml", "templates.bmc.agent", "unknown agent type 'x'");
        ConfigProblem whole = ConfigProblem.in("fence.yaml", "", "line 3, column 1: YAML syntax error");

        assertThat(atPath).hasToString("fence.yaml:templates.bmc.agent: unknown agent type 'x'");
        assertThat(atPath.message()).as("no hint, no trailing separator").isEqualTo("unknown agent type 'x'");
        assertThat(whole).hasToString("fence.yaml: line 3, column 1: YAML syntax error");
    }

    @Test
    @DisplayName("an agent's problem moved into a file keeps its problem and hint, at the file's path")
    void relocated() {
        ConfigProblem moved = PORT.at("fence.yaml", "nodes.n1.bmc.port");

        assertThat(moved).isEqualTo(new ConfigProblem("fence.yaml", "nodes.n1.bmc.port",
                "'abc' is not a whole number", "give a whole number, e.g. 623"));
        assertThat(moved).hasToString("fence.yaml:nodes.n1.bmc.port: 'abc' is not a whole number; give a whole "
                + "number, e.g. 623");
    }

    @Test
    @DisplayName("a located problem needs every field")
    void locatedNulls() {
        assertThatThrownBy(() -> new ConfigProblem(null, "p", "x", "h"))
                .isInstanceOf(NullPointerException.class).hasMessage("source");
        assertThatThrownBy(() -> ConfigProblem.in("f.yaml", null, "m"))
                .isInstanceOf(NullPointerException.class).hasMessage("path");
        assertThatThrownBy(() -> PORT.at(null, "p")).isInstanceOf(NullPointerException.class).hasMessage("source");
    }

    @Test
    @DisplayName("one problem is counted in the singular and quoted in full")
    void oneProblem() {
        InvalidConfigurationException e = new InvalidConfigurationException("ipmi", List.of(PORT));

        assertThat(e).isInstanceOf(RemedyException.class);
        assertThat(e.agentType()).isEqualTo("ipmi");
        assertThat(e.problems()).containsExactly(PORT);
        assertThat(e).hasMessage("invalid configuration for agent 'ipmi' (1 problem): " + PORT);
    }

    @Test
    @DisplayName("several problems are counted in the plural and all listed, in order")
    void severalProblems() {
        InvalidConfigurationException e = new InvalidConfigurationException("ipmi", List.of(IP, PORT));

        assertThat(e).hasMessage("invalid configuration for agent 'ipmi' (2 problems): " + IP + " | " + PORT);
        assertThat(e.problems()).containsExactly(IP, PORT);
    }

    @Test
    @DisplayName("the problem list is copied and cannot be changed")
    void problemsCopied() {
        List<ConfigProblem> problems = new ArrayList<>(List.of(PORT));

        InvalidConfigurationException e = new InvalidConfigurationException("ipmi", problems);
        problems.add(IP);

        assertThat(e.problems()).containsExactly(PORT);
        assertThatThrownBy(() -> e.problems().add(IP)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    @DisplayName("an exception without problems is refused")
    void noProblems() {
        assertThatThrownBy(() -> new InvalidConfigurationException("ipmi", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one problem");
    }
}
