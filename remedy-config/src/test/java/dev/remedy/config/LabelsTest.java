package dev.remedy.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("Labels, by Kubernetes' rules")
class LabelsTest {

    @ParameterizedTest(name = "''{0}'' is a label key")
    @ValueSource(strings = {"rack", "node-role.kubernetes.io/control-plane", "topology.kubernetes.io/zone", "a",
        "Example_Key.1", "x.y/Z-1"})
    @DisplayName("accepts keys with an optional DNS prefix")
    void keys(String key) {
        assertThat(Labels.keyProblem(key)).isEmpty();
    }

    @ParameterizedTest(name = "''{0}'' is not a label key")
    @ValueSource(strings = {"", "-rack", "rack-", "a b", "Example.com/x", "example.com/", "/x", "a/b/c",
        "x123456789012345678901234567890123456789012345678901234567890123"})
    @DisplayName("refuses other keys, saying what a key looks like")
    void badKeys(String key) {
        assertThat(Labels.keyProblem(key)).hasValueSatisfying(problem -> assertThat(problem)
                .startsWith("'" + key + "' is not a label key: ").contains("node-role.kubernetes.io/worker"));
    }

    @ParameterizedTest(name = "''{0}'' is a label value")
    @ValueSource(strings = {"", "r1", "compute", "1", "true", "a.b_c-d"})
    @DisplayName("accepts empty values and values shaped like names")
    void values(String value) {
        assertThat(Labels.valueProblem(value)).isEmpty();
    }

    @ParameterizedTest(name = "''{0}'' is not a label value")
    @ValueSource(strings = {"-a", "a-", "r 1", "a/b", "x123456789012345678901234567890123456789012345678901234567890123"})
    @DisplayName("refuses other values, saying what a value looks like")
    void badValues(String value) {
        assertThat(Labels.valueProblem(value)).hasValueSatisfying(problem -> assertThat(problem)
                .startsWith("'" + value + "' is not a label value: ").endsWith("or \"\""));
    }
}
