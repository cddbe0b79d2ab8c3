package dev.remedy.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.storm.NodeView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NodeStatusTest {

    @Test
    @DisplayName("builds a node view from a reported node, its role and its failure-domain label")
    void fromNodeStatus() {
        NodeStatus status = new NodeStatus("cp-1", Map.of(NodeStatus.CONTROL_PLANE_LABEL, "", "rack", "r7"),
                List.of(new NodeCondition("Ready", "Unknown", Instant.EPOCH)));

        NodeView view = status.view(Optional.of("rack"), true, false, true, 3);
        NodeView noLabel = status.view(Optional.of("switch"), true, false, false, 0);

        assertThat(view).isEqualTo(new NodeView("cp-1", true, true, false, true, Optional.of("r7"), 3));
        assertThat(noLabel.failureDomain()).isEmpty();
    }
}
