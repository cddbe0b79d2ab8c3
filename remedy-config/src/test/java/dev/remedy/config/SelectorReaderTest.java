package dev.remedy.config;

import static dev.remedy.config.ConfigProblemsTest.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.config.ConfigProblem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SelectorReader")
class SelectorReaderTest {

    private final ConfigProblems problems = new ConfigProblems("f.yaml");
    private final SelectorReader reader = new SelectorReader(problems);

    private List<String> texts() {
        return problems.list().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    @DisplayName("reads matchLabels, with YAML numbers and booleans as text and \"\" for an empty value")
    void matchLabels() {
        ConfigNode doc = yaml("selector: {node-role.kubernetes.io/worker: '', zone: 1, gpu: true}");

        assertThat(reader.matchLabels(doc.get("selector"), "selector")).hasValue(new NodeSelector(Map.of(
                "node-role.kubernetes.io/worker", "", "zone", "1", "gpu", "true")));
        assertThat(reader.matchLabels(null, "selector")).hasValue(NodeSelector.ALL);
        assertThat(problems.isEmpty()).isTrue();
    }

    @Test
    @DisplayName("refuses a label key or value Kubernetes would refuse, a value that is not one, and a missing value")
    void badMatchLabels() {
        ConfigNode doc = yaml("selector: {-bad: x, zone: -a, example.com/: x, ok: [a], none: , UPPER.example/x: y}");

        assertThat(reader.matchLabels(doc.get("selector"), "selector")).isEmpty();
        assertThat(reader.matchLabels(yaml("selector: x").get("selector"), "other")).isEmpty();

        assertThat(texts()).satisfiesExactly(
                text -> assertThat(text).startsWith("f.yaml:selector.-bad: '-bad' is not a label key: "),
                text -> assertThat(text).startsWith("f.yaml:selector.zone: '-a' is not a label value: "),
                text -> assertThat(text).startsWith("f.yaml:selector[\"example.com/\"]: 'example.com/' is not a "
                        + "label key"),
                text -> assertThat(text).isEqualTo("f.yaml:selector.ok: must be a label value, not a list"),
                text -> assertThat(text).isEqualTo("f.yaml:selector.none: has no value; write \"\" for a label "
                        + "whose value is empty"),
                text -> assertThat(text).startsWith("f.yaml:selector[\"UPPER.example/x\"]: 'UPPER.example/x' is "
                        + "not a label key"),
                text -> assertThat(text).isEqualTo("f.yaml:other: must be a mapping of label keys to values "
                        + "(matchLabels), such as {node-role.kubernetes.io/worker: \"\"}, not text"));
    }

    @Test
    @DisplayName("reads a node's labels in document order, with the same checks")
    void labels() {
        assertThat(reader.labels(yaml("labels: {rack: r1, zone: a}").get("labels"), "labels"))
                .hasValueSatisfying(labels -> assertThat(labels).containsExactly(Map.entry("rack", "r1"),
                        Map.entry("zone", "a")));
        assertThat(reader.labels(null, "labels")).hasValue(Map.of());
        assertThat(reader.labels(yaml("labels: {rack: 'r 1'}").get("labels"), "labels")).isEmpty();
        assertThat(reader.labels(yaml("labels: [rack]").get("labels"), "labels")).isEmpty();

        assertThat(texts()).satisfiesExactly(
                text -> assertThat(text).startsWith("f.yaml:labels.rack: 'r 1' is not a label value"),
                text -> assertThat(text).isEqualTo("f.yaml:labels: must be a mapping of label keys to values such "
                        + "as {rack: r1}, not a list"));
    }

    @Test
    @DisplayName("reads equality text key=value (or ==), comma separated")
    void equalities() {
        ConfigNode doc = yaml("nodeSelector: 'type=compute, zone==a, role='");

        assertThat(reader.equalities(doc.get("nodeSelector"), "nodeSelector")).hasValue(new NodeSelector(Map.of(
                "type", "compute", "zone", "a", "role", "")));
        assertThat(reader.equalities(null, "nodeSelector")).hasValue(NodeSelector.ALL);
        assertThat(problems.isEmpty()).isTrue();
    }

    @Test
    @DisplayName("refuses set-based requirements, a label required twice, bad keys and values, and what is not text")
    void badEqualities() {
        List<String> refused = List.of("type in (a)", "type=a,type=b", "-type=a", "type=-a", "[type]");
        for (String text : refused) {
            ConfigNode node = text.startsWith("[") ? yaml("s: " + text).get("s") : yaml("s: '" + text + "'").get("s");
            assertThat(reader.equalities(node, "nodeSelector")).as(text).isEmpty();
        }

        assertThat(texts()).satisfiesExactly(
                text -> assertThat(text).contains("'type in (a)' is not a requirement key=value; only equality "
                        + "requirements are supported"),
                text -> assertThat(text).contains("requires label type twice, with different values"),
                text -> assertThat(text).startsWith("f.yaml:nodeSelector: '-type' is not a label key"),
                text -> assertThat(text).startsWith("f.yaml:nodeSelector: '-a' is not a label value"),
                text -> assertThat(text).isEqualTo("f.yaml:nodeSelector: must be text key=value (comma separated for "
                        + "more labels), such as type=compute; not a list"));
    }

    @Test
    @DisplayName("checks a lone label key, such as a policy's exclusion label")
    void labelKey() {
        assertThat(reader.labelKey("example.com/no-remediation", "exclusionLabel")).isTrue();
        assertThat(reader.labelKey("no remediation", "exclusionLabel")).isFalse();

        assertThat(texts()).singleElement().asString()
                .startsWith("f.yaml:exclusionLabel: 'no remediation' is not a label key");
    }
}
