package dev.remedy.fence.kube.watch.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.Observation;
import dev.remedy.core.policy.NodeCondition;
import dev.remedy.core.policy.NodeStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NodeConversionTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final NodeState state = new NodeState();

    private static Node node(Map<String, String> labels, String ready, String transition, String beat, String boot) {
        return new NodeBuilder().withNewMetadata().withName("n1").withLabels(labels).endMetadata().withNewStatus()
                .addNewCondition().withType("Ready").withStatus(ready).withLastTransitionTime(transition)
                .withLastHeartbeatTime(beat).endCondition()
                .withNewNodeInfo().withBootID(boot).endNodeInfo().endStatus().build();
    }

    @Test
    @DisplayName("name, labels and conditions are converted; an unchanged node gives the same status instance")
    void convertsAndReuses() {
        NodeStatus first = NodeConversion.status(node(Map.of("a", "1"), "False", "2026-01-01T00:00:00Z",
                "2026-01-01T00:01:00Z", "b1"), state, T0.plusSeconds(90), false);
        assertThat(first.name()).isEqualTo("n1");
        assertThat(first.labels()).containsExactly(Map.entry("a", "1"));
        assertThat(first.conditions()).containsExactly(new NodeCondition("Ready", "False", T0));

        NodeStatus heartbeat = NodeConversion.status(node(Map.of("a", "1"), "False", "2026-01-01T00:00:00Z",
                "2026-01-01T00:02:00Z", "b1"), state, T0.plusSeconds(150), false);
        assertThat(heartbeat).isSameAs(first);

        NodeStatus relabelled = NodeConversion.status(node(Map.of("a", "2"), "False", "2026-01-01T00:00:00Z",
                "2026-01-01T00:02:00Z", "b1"), state, T0.plusSeconds(150), false);
        assertThat(relabelled).isNotSameAs(first);
        assertThat(relabelled.labels()).containsExactly(Map.entry("a", "2"));
        assertThat(relabelled.conditions()).isSameAs(first.conditions());

        NodeStatus ready = NodeConversion.status(node(Map.of("a", "2"), "True", "2026-01-01T00:03:00Z",
                "2026-01-01T00:03:00Z", "b1"), state, T0.plusSeconds(180), false);
        assertThat(ready.labels()).isSameAs(relabelled.labels());
        assertThat(ready.conditions()).containsExactly(new NodeCondition("Ready", "True", T0.plusSeconds(180)));
    }

    @Test
    @DisplayName("a missing or unreadable transition time counts from now, or keeps the time seen before")
    void unknownTransitionTimes() {
        Instant now = T0.plusSeconds(600);
        NodeStatus first = NodeConversion.status(node(Map.of(), "False", null, null, "b1"), state, now, false);
        assertThat(first.conditions()).containsExactly(new NodeCondition("Ready", "False", now));
        NodeStatus garbled = NodeConversion.status(node(Map.of(), "False", "yesterday", null, "b1"), state,
                now.plusSeconds(60), false);
        assertThat(garbled.conditions()).containsExactly(new NodeCondition("Ready", "False", now));
    }

    @Test
    @DisplayName("a node confirmed healthy is given without conditions")
    void withoutConditions() {
        NodeStatus status = NodeConversion.status(node(Map.of(), "False", "2026-01-01T00:00:00Z", null, "b1"), state,
                T0, true);
        assertThat(status.conditions()).isEmpty();
    }

    @Test
    @DisplayName("readiness has no boot time until the boot id changes; then the previous boot's latest heartbeat")
    void bootTime() {
        Observation.Readiness first = NodeConversion.readiness(node(Map.of(), "True", "2026-01-01T00:00:00Z",
                "2026-01-01T00:01:00Z", "b1"), state);
        assertThat(first).isEqualTo(new Observation.Readiness(true, Optional.empty()));
        Observation.Readiness same = NodeConversion.readiness(node(Map.of(), "True", "2026-01-01T00:00:00Z",
                "2026-01-01T00:05:00Z", "b1"), state);
        assertThat(same).isSameAs(first);
        Observation.Readiness lost = NodeConversion.readiness(node(Map.of(), "Unknown", "2026-01-01T00:06:00Z",
                "2026-01-01T00:05:00Z", "b1"), state);
        assertThat(lost).isEqualTo(new Observation.Readiness(false, Optional.empty()));
        Observation.Readiness rebooted = NodeConversion.readiness(node(Map.of(), "True", "2026-01-01T00:09:00Z",
                "2026-01-01T00:09:00Z", "b2"), state);
        assertThat(rebooted).isEqualTo(new Observation.Readiness(true, Optional.of(T0.plusSeconds(300))));
    }
}
