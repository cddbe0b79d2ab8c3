package dev.remedy.fence.kube.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.engine.Taint;
import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The ConfigMap backup of a deleted Node, on fabric8's mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class KubeNodeBackupTest {

    private static final String NAMESPACE = "remedy-backups";
    private static final Taint FOREIGN = new Taint("example.com/maintenance", "planned", "NoSchedule");

    KubernetesClient client;

    private final List<KubeEvents.Note> events = new ArrayList<>();

    /** A new instance each time: what an engine restarted between two calls has. */
    private KubeClusterOperations engine() {
        return KubeClusterOperations.builder(client).backupNamespace(NAMESPACE).time(new FakeTimeSource())
                .events(events::add).pods(new InMemoryPaging(client)).build();
    }

    private ConfigMap backup(String node) {
        return client.configMaps().inNamespace(NAMESPACE).withName(KubeClusterOperations.backupName(node)).get();
    }

    private String deletedNode() {
        String node = "node-" + UUID.randomUUID();
        KubeFixtures.addNode(client, node, 0, "default");
        engine().cordon(node);
        engine().addTaint(node, FOREIGN);
        engine().addTaint(node, Taint.OUT_OF_SERVICE);
        engine().deleteNode(node);
        return node;
    }

    @Test
    @DisplayName("deleteNode leaves a labelled backup ConfigMap with the node's labels, annotations, taints and spec")
    void backupIsWritten() {
        String node = deletedNode();

        assertThat(KubeFixtures.exists(client, node)).isFalse();
        ConfigMap backup = backup(node);
        assertThat(backup).isNotNull();
        assertThat(backup.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "remedy")
                .containsEntry("remedy.dev/node-backup", "true");
        assertThat(backup.getMetadata().getAnnotations()).containsEntry("remedy.dev/node-name", node);
        Node saved = client.getKubernetesSerialization().unmarshal(backup.getData().get("node.json"), Node.class);
        assertThat(saved.getMetadata().getName()).isEqualTo(node);
        assertThat(saved.getMetadata().getLabels()).containsEntry("topology.kubernetes.io/zone", "zone-a");
        assertThat(saved.getMetadata().getAnnotations()).containsEntry("example.com/rack", "r12");
        assertThat(saved.getMetadata().getResourceVersion()).isNull();
        assertThat(saved.getMetadata().getUid()).isNull();
        assertThat(saved.getSpec().getUnschedulable()).isTrue();
        assertThat(saved.getSpec().getProviderID()).isEqualTo("metal3://ns/" + node);
        assertThat(saved.getSpec().getPodCIDRs()).containsExactly("10.244.7.0/24");
        assertThat(saved.getSpec().getTaints()).extracting(t -> t.getKey())
                .containsExactlyInAnyOrder(FOREIGN.key(), Taint.OUT_OF_SERVICE.key());
        assertThat(events).extracting(KubeEvents.Note::reason).containsExactly("NodeDeleted");
    }

    @Test
    @DisplayName("a restarted engine restores the node from the backup an earlier one wrote, then removes the backup")
    void restartedEngineRestores() {
        String node = deletedNode();

        engine().restoreNode(node);

        Node restored = client.nodes().withName(node).get();
        assertThat(restored).isNotNull();
        assertThat(restored.getMetadata().getLabels()).containsEntry("topology.kubernetes.io/zone", "zone-a");
        assertThat(restored.getMetadata().getAnnotations()).containsEntry("example.com/rack", "r12");
        assertThat(restored.getSpec().getUnschedulable()).isTrue();
        assertThat(restored.getSpec().getProviderID()).isEqualTo("metal3://ns/" + node);
        assertThat(restored.getSpec().getPodCIDR()).isEqualTo("10.244.7.0/24");
        assertThat(restored.getSpec().getTaints()).filteredOn(t -> t.getKey().equals(Taint.OUT_OF_SERVICE.key()))
                .singleElement().satisfies(t -> assertThat(t.getTimeAdded()).isNotNull());
        assertThat(KubeFixtures.taints(client, node)).containsExactlyInAnyOrder(FOREIGN, Taint.OUT_OF_SERVICE);
        assertThat(backup(node)).isNull();
        assertThat(events).extracting(KubeEvents.Note::reason).containsExactly("NodeDeleted", "NodeRestored");
    }

    @Test
    @DisplayName("a node that exists again when the restore runs (the kubelet registered it) is left alone, and the "
            + "backup removed")
    void existingNodeLeftAlone() {
        String node = deletedNode();
        client.nodes().resource(new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata().withName(node)
                .addToLabels("kubelet", "registered").endMetadata().build()).create();

        engine().restoreNode(node);

        Node now = client.nodes().withName(node).get();
        assertThat(now.getMetadata().getLabels()).containsOnlyKeys("kubelet");
        assertThat(backup(node)).isNull();
    }

    @Test
    @DisplayName("a second delete after the node is gone keeps the first backup as it was")
    void secondDeleteKeepsBackup() {
        String node = deletedNode();
        ConfigMap first = backup(node);

        engine().deleteNode(node);

        assertThat(backup(node).getData()).isEqualTo(first.getData());
        assertThat(backup(node).getMetadata().getResourceVersion()).isEqualTo(first.getMetadata().getResourceVersion());
    }

    @Test
    @DisplayName("a backup left by a crash between backup and delete is brought up to date, and the node deleted")
    void backupWithoutDeleteIsRedone() {
        String node = "node-" + UUID.randomUUID();
        KubeFixtures.addNode(client, node, 0, "default");
        client.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(KubeClusterOperations.backupName(node)).addToAnnotations("remedy.dev/node-uid", "older")
                .endMetadata().addToData("node.json", "{}").build()).create();
        engine().addTaint(node, FOREIGN);

        engine().deleteNode(node);

        assertThat(KubeFixtures.exists(client, node)).isFalse();
        engine().restoreNode(node);
        assertThat(KubeFixtures.taints(client, node)).containsExactly(FOREIGN);
    }

    @Test
    @DisplayName("an unreadable backup fails the restore with a message naming the ConfigMap and what to do")
    void unreadableBackup() {
        String node = "node-" + UUID.randomUUID();
        client.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(KubeClusterOperations.backupName(node)).endMetadata().addToData("node.json", "not json")
                .build()).create();

        assertThatThrownBy(() -> engine().restoreNode(node))
                .hasMessageContaining(NAMESPACE + "/" + KubeClusterOperations.backupName(node))
                .hasMessageContaining("delete it to give up the restore");
        assertThat(KubeFixtures.exists(client, node)).isFalse();
    }

    @Test
    @DisplayName("the backup name of a long node name is cut to 253 characters with a hash, distinct per node")
    void longNamesAreHashed() {
        String base = "n".repeat(120) + "." + "m".repeat(120);
        String one = KubeClusterOperations.backupName(base + "-1");
        String two = KubeClusterOperations.backupName(base + "-2");

        assertThat(one).hasSizeLessThanOrEqualTo(253).startsWith("remedy-node-backup-nnn")
                .matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?").doesNotContain(".-");
        assertThat(two).isNotEqualTo(one).hasSizeLessThanOrEqualTo(253);
        assertThat(KubeClusterOperations.backupName("worker-1")).isEqualTo("remedy-node-backup-worker-1");
    }
}
