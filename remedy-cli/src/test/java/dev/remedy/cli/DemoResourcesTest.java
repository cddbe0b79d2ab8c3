package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.DisplayName;

/** The demo's policy and scenarios are the examples' own files, copied into the jar: they must not drift apart. */
class DemoResourcesTest {

    @ParameterizedTest
    @ValueSource(strings = {"policies.yaml", "single-node-failure.yaml", "rack-switch-failure.yaml",
        "sixty-percent-unreachable.yaml"})
    @DisplayName("each demo file equals the example of the same name")
    void demoFilesEqualTheExamples(String name) throws IOException {
        Path example = Path.of("..", "examples", "src", "test", "resources", "scenarios", name);
        try (InputStream demo = DemoCommand.class.getResourceAsStream("demo/" + name)) {
            assertThat(demo).as("demo resource %s", name).isNotNull();
            assertThat(new String(demo.readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo(Files.readString(example, StandardCharsets.UTF_8));
        }
    }
}
