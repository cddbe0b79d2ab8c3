package dev.remedy.core.storm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("PoolView")
class PoolViewTest {

    @Test
    @DisplayName("counts a node as healthy only if it is not unhealthy and not remediating")
    void healthyMeansNotMatchingAndNotRemediating() {
        PoolView view = PoolView.of(
                new NodeView("a", false, false, false, false, Optional.empty(), 0),
                new NodeView("b", false, true, false, false, Optional.empty(), 0),
                new NodeView("c", false, false, true, false, Optional.empty(), 0),
                new NodeView("d", false, true, true, true, Optional.empty(), 0));

        assertThat(view.total()).isEqualTo(4);
        assertThat(view.healthy()).isEqualTo(1);
        assertThat(view.notHealthy()).isEqualTo(3);
        assertThat(view.unhealthy()).isEqualTo(2);
        assertThat(view.remediating()).isEqualTo(2);
        assertThat(view.disconnected()).isEqualTo(1);
    }

    @Test
    @DisplayName("counts control-plane nodes and failure domains in one pass")
    void controlPlaneAndDomains() {
        PoolView view = Pool.create().controlPlane(1, 1, 1).domain("r1", 2, 3).domain("r2", 4, 0).healthy(1).view();

        assertThat(view.controlPlaneTotal()).isEqualTo(3);
        assertThat(view.controlPlaneHealthy()).isEqualTo(1);
        assertThat(view.controlPlaneRemediating()).isEqualTo(1);
        assertThat(view.domain("r1")).contains(new DomainCounts("r1", 5, 3));
        assertThat(view.domain("r2")).contains(new DomainCounts("r2", 4, 0));
        assertThat(view.domain("r3")).isEmpty();
        assertThat(view.domains()).hasSize(2);
    }

    @Test
    @DisplayName("refuses two nodes with the same name, naming it")
    void duplicateNames() {
        assertThatThrownBy(() -> PoolView.of(NodeView.of("a", false), NodeView.of("a", true)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("node a appears twice");
    }

    @Test
    @DisplayName("adds recorded remediations to the counts without touching the observation")
    void withRemediating() {
        PoolView view = Pool.create().domain("r1", 2, 1).controlPlane(1, 0, 0).view();
        // node-0000 healthy in r1, node-0002 unhealthy in r1, node-0003 healthy control plane
        PoolView more = view.withRemediating(List.of("node-0000", "node-0002", "node-0003", "gone"));

        assertThat(more.remediating()).isEqualTo(4);
        assertThat(more.healthy()).isEqualTo(1);
        assertThat(more.controlPlaneRemediating()).isEqualTo(1);
        assertThat(more.controlPlaneHealthy()).isZero();
        assertThat(more.domain("r1")).contains(new DomainCounts("r1", 3, 2));
        assertThat(more.isRemediating("gone")).isTrue();
        assertThat(more.node("node-0000")).map(NodeView::remediating).contains(true);
        assertThat(view.remediating()).isZero();
        assertThat(view.healthy()).isEqualTo(3);
        assertThat(view.domain("r1")).contains(new DomainCounts("r1", 3, 1));
    }

    @Test
    @DisplayName("does not count a recorded remediation twice")
    void withRemediatingIsIdempotent() {
        PoolView view = Pool.create().remediating(1).unhealthy(1).view();

        PoolView more = view.withRemediating(List.of("node-0000", "node-0001"))
                .withRemediating(List.of("node-0001"));

        assertThat(more.remediating()).isEqualTo(2);
        assertThat(view.withRemediating(List.of("node-0000"))).isSameAs(view);
    }

    @Test
    @DisplayName("knows the node with a unique highest priority, and no one when it is shared")
    void highestPriority() {
        PoolView unique = PoolView.of(new NodeView("a", false, true, false, false, Optional.empty(), 10),
                new NodeView("b", false, true, false, false, Optional.empty(), 5));
        PoolView tie = PoolView.of(new NodeView("a", false, true, false, false, Optional.empty(), 10),
                new NodeView("b", false, true, false, false, Optional.empty(), 10));

        assertThat(unique.hasHighestPriority("a")).isTrue();
        assertThat(unique.hasHighestPriority("b")).isFalse();
        assertThat(tie.hasHighestPriority("a")).isFalse();
        assertThat(PoolView.of(NodeView.of("solo", true)).hasHighestPriority("solo")).isFalse();
        assertThat(unique.hasHighestPriority("absent")).isFalse();
    }

    @Test
    @DisplayName("refuses a blank node name or failure domain")
    void nodeViewValidation() {
        assertThatThrownBy(() -> NodeView.of(" ", true)).hasMessageContaining("blank");
        assertThatThrownBy(() -> new NodeView("n1", false, false, false, false, Optional.of(""), 0))
                .hasMessageContaining("node n1");
    }
}
