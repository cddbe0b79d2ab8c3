package dev.remedy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("NodeSelector")
class NodeSelectorTest {

    @Test
    @DisplayName("matches a node that has every label with exactly its value, whatever other labels it has")
    void equality() {
        NodeSelector selector = new NodeSelector(Map.of("pool", "gpu", "zone", "a"));

        assertThat(selector.matches(Map.of("pool", "gpu", "zone", "a", "rack", "7"))).isTrue();
        assertThat(selector.matches(Map.of("pool", "gpu"))).isFalse();
        assertThat(selector.matches(Map.of("pool", "gpu", "zone", "b"))).isFalse();
        assertThat(selector.matchesAll()).isFalse();
    }

    @Test
    @DisplayName("matches a label whose value is empty only on a node that has the label")
    void emptyValue() {
        NodeSelector controlPlane = new NodeSelector(Map.of("node-role.kubernetes.io/control-plane", ""));

        assertThat(controlPlane.matches(Map.of("node-role.kubernetes.io/control-plane", ""))).isTrue();
        assertThat(controlPlane.matches(Map.of())).isFalse();
    }

    @Test
    @DisplayName("without labels matches every node")
    void empty() {
        assertThat(NodeSelector.ALL.matchesAll()).isTrue();
        assertThat(NodeSelector.ALL.matches(Map.of())).isTrue();
        assertThat(NodeSelector.ALL.matches(Map.of("any", "thing"))).isTrue();
    }

    @Test
    @DisplayName("copies its labels and refuses a null value")
    void copies() {
        Map<String, String> labels = new HashMap<>(Map.of("pool", "gpu"));
        NodeSelector selector = new NodeSelector(labels);
        labels.put("zone", "a");
        Map<String, String> withNull = new HashMap<>();
        withNull.put("pool", null);

        assertThat(selector.matchLabels()).containsOnlyKeys("pool");
        assertThatThrownBy(() -> new NodeSelector(withNull)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("pool");
    }
}
