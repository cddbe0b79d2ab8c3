package dev.remedy.fence.kube.watch;

import static dev.remedy.fence.kube.watch.WatchFixtures.await;
import static dev.remedy.fence.kube.watch.WatchFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.Observation;
import dev.remedy.core.policy.AdmissionGate;
import dev.remedy.core.policy.IncrementalPolicyController;
import dev.remedy.core.policy.PolicyDecision;
import dev.remedy.fence.kube.watch.WatchFixtures.RecordingRunner;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractMap.SimpleEntry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The watcher on the mock API server in CRUD mode. The informer runs in real time: the tests wait for an observable
 * condition with a deadline; the controller's time is fake and advanced by the test.
 */
@EnableKubernetesMockClient(crud = true)
class NodeWatcherTest {

    KubernetesClient client;

    private final FakeTimeSource time = new FakeTimeSource();
    private final Instant t0 = time.instant();
    private final RecordingRunner runner = new RecordingRunner();
    private final List<PolicyDecision> decisions = new CopyOnWriteArrayList<>();
    private final List<Map.Entry<String, Observation.Readiness>> readiness = new CopyOnWriteArrayList<>();
    private NodeWatcher watcher;

    @BeforeEach
    void controller() {
        IncrementalPolicyController controller = new IncrementalPolicyController(List.of(WatchFixtures.workers()),
                runner, AdmissionGate.OPEN, decisions::add);
        watcher = NodeWatcher.builder(client, controller).time(time).resync(Duration.ofSeconds(1))
                .advanceEvery(Duration.ofHours(1)).readiness((n, r) -> readiness.add(new SimpleEntry<>(n, r)))
                .labelSelector(Map.of("shard", "a")).build();
    }

    @AfterEach
    void close() {
        watcher.close();
        client.close(); // its watch connections closed before the mock server shuts down (slow under load)
    }

    @Test
    @DisplayName("a node NotReady for its condition's duration is remediated; a Ready node and another shard's are not")
    void remediatesUnhealthyNodesOfItsShard() throws Exception {
        create(node("a1", "False", t0, "boot-1", t0, Map.of("shard", "a")));
        create(node("a2", "True", t0, "boot-1", t0, Map.of("shard", "a")));
        create(node("b1", "False", t0, "boot-1", t0, Map.of("shard", "b")));
        start();
        await("both nodes of shard a are tracked", () -> watcher.tracked() == 2);

        time.advance(Duration.ofSeconds(59));
        watcher.advance().get(5, TimeUnit.SECONDS);
        assertThat(runner.started).as("59 s of NotReady is not yet 60 s").isEmpty();

        time.advance(Duration.ofSeconds(1));
        watcher.advance().get(5, TimeUnit.SECONDS);
        assertThat(runner.started).containsExactly("a1:snr");
        assertThat(readiness).extracting(Map.Entry::getKey).contains("a1", "a2").doesNotContain("b1");
        assertThat(readiness).filteredOn(e -> e.getKey().equals("a2"))
                .allSatisfy(e -> assertThat(e.getValue().ready()).isTrue());
    }

    @Test
    @DisplayName("a node labelled exclude-from-remediation=true is forgotten while labelled, remediated once not")
    void excludedNodesAreForgotten() throws Exception {
        create(node("a1", "False", t0, "boot-1", t0, Map.of("shard", "a", NodeWatcher.EXCLUDE_LABEL, "true")));
        create(node("a2", "True", t0, "boot-1", t0, Map.of("shard", "a")));
        start();
        await("the Ready node is tracked", () -> watcher.tracked() == 1);
        time.advance(Duration.ofMinutes(5));
        watcher.advance().get(5, TimeUnit.SECONDS);
        assertThat(runner.started).isEmpty();

        client.nodes().withName("a1").edit(n -> {
            n.getMetadata().getLabels().remove(NodeWatcher.EXCLUDE_LABEL);
            return n;
        });
        await("the node without the label is tracked", () -> watcher.tracked() == 2);
        watcher.advance().get(5, TimeUnit.SECONDS);
        assertThat(runner.started).containsExactly("a1:snr");

        client.nodes().withName("a1").edit(n -> {
            n.getMetadata().getLabels().put(NodeWatcher.EXCLUDE_LABEL, "true");
            return n;
        });
        await("the labelled node is forgotten", () -> watcher.tracked() == 1);
    }

    @Test
    @DisplayName("a deleted node leaves the controller")
    void deletedNodesAreForgotten() throws Exception {
        create(node("a1", "True", t0, "boot-1", t0, Map.of("shard", "a")));
        create(node("a2", "True", t0, "boot-1", t0, Map.of("shard", "a")));
        start();
        await("both nodes are tracked", () -> watcher.tracked() == 2);
        client.nodes().withName("a2").delete();
        await("the deleted node is forgotten", () -> watcher.tracked() == 1);
    }

    @Test
    @DisplayName("confirmed healthy: the remediation ends and is cancelled; the annotation is removed once Ready")
    void confirmedHealthy() throws Exception {
        create(node("a1", "False", t0, "boot-1", t0, Map.of("shard", "a")));
        start();
        await("the node is tracked", () -> watcher.tracked() == 1);
        time.advance(Duration.ofSeconds(61));
        watcher.advance().get(5, TimeUnit.SECONDS);
        assertThat(runner.started).containsExactly("a1:snr");

        client.nodes().withName("a1").edit(n -> {
            n.getMetadata().setAnnotations(Map.of(NodeWatcher.CONFIRMED_HEALTHY, "true"));
            return n;
        });
        await("the remediation is cancelled", () -> runner.cancelled.contains("a1:snr"));
        // the decisions of a pass are published after its cancellations, on the informer's thread
        await("the recovery is decided", () -> decisions.stream()
                .anyMatch(d -> d.kind() == PolicyDecision.Kind.RECOVERED));
        watcher.advance().get(5, TimeUnit.SECONDS);
        assertThat(annotations("a1")).as("kept while the node is not Ready")
                .containsKey(NodeWatcher.CONFIRMED_HEALTHY);

        time.advance(Duration.ofMinutes(10));
        watcher.advance().get(5, TimeUnit.SECONDS);
        assertThat(runner.started).as("an annotated node is not remediated again").hasSize(1);

        Instant back = time.instant();
        client.nodes().withName("a1").edit(n -> node("a1", "True", back, "boot-2", back, Map.of("shard", "a"))
                .edit().withMetadata(n.getMetadata()).build());
        await("the annotation is removed", () -> !annotations("a1").containsKey(NodeWatcher.CONFIRMED_HEALTHY));
        time.advance(Duration.ofMinutes(10));
        watcher.advance().get(5, TimeUnit.SECONDS);
        assertThat(runner.started).hasSize(1);
    }

    @Test
    @DisplayName("the engine gets readiness, with a boot time only after the boot id changed: the old boot's last beat")
    void readinessAndBootTime() throws Exception {
        Instant beat = t0.plusSeconds(30);
        create(node("a1", "True", t0, "boot-1", beat, Map.of("shard", "a")));
        start();
        await("the node's readiness arrived", () -> !readiness.isEmpty());
        assertThat(readiness.get(0).getValue()).isEqualTo(new Observation.Readiness(true, Optional.empty()));

        Instant later = t0.plusSeconds(300);
        client.nodes().withName("a1").edit(n -> node("a1", "True", later, "boot-2", later, Map.of("shard", "a"))
                .edit().withMetadata(n.getMetadata()).build());
        await("a readiness with a boot time arrived",
                () -> readiness.stream().anyMatch(e -> e.getValue().bootedAt().isPresent()));
        assertThat(readiness.get(readiness.size() - 1).getValue())
                .isEqualTo(new Observation.Readiness(true, Optional.of(beat)));
    }

    private void create(Node node) {
        client.nodes().resource(node).create();
    }

    private void start() throws Exception {
        watcher.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private Map<String, String> annotations(String node) {
        Map<String, String> annotations = client.nodes().withName(node).get().getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }
}
