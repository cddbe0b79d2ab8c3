package dev.remedy.fence.kube.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.FenceRecordJson;
import dev.remedy.core.store.StaleRecordException;
import dev.remedy.test.conformance.FenceRecords;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What {@link KubeFenceStateStore} does beyond the store contract, on the CRUD mock API server. */
@DisplayName("KubeFenceStateStore")
@EnableKubernetesMockClient(crud = true)
class KubeFenceStateStoreTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    KubernetesClient client;
    private RequestHooks hooks;
    private KubeFenceStateStore store;

    @BeforeEach
    void setUp() {
        NodeFenceCrd.apply(client);
        hooks = new RequestHooks(client);
        store = new KubeFenceStateStore(hooks.client(), 2);
    }

    @AfterEach
    void tearDown() {
        hooks.close();
    }

    @Test
    @DisplayName("a saved record is a NodeFence named like the node, with readable fields, a managed-by label and no "
            + "owner reference, after create and after update")
    void readableAndUnowned() {
        NodeFence first = store.save(FenceRecords.minimal("worker-1"));
        NodeFenceResource created = nodeFence("worker-1");
        assertThat(created.getMetadata().getOwnerReferences()).isNullOrEmpty();
        assertThat(created.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "remedy");

        NodeFence second = store.save(FenceRecords.withAgentOperation("worker-1").withVersion(first.version()));

        NodeFenceResource updated = nodeFence("worker-1");
        assertThat(updated.getMetadata().getOwnerReferences()).isNullOrEmpty();
        NodeFenceSpec spec = updated.getSpec();
        assertThat(spec.getNode()).isEqualTo("worker-1");
        assertThat(spec.getStep()).isEqualTo(second.step().code());
        assertThat(spec.getState()).isEqualTo(second.state().code());
        assertThat(spec.getRetries()).isEqualTo(second.retries());
        assertThat(spec.getRestarts()).isEqualTo(second.restarts());
        assertThat(spec.getReason()).isEqualTo(second.reason());
        assertThat(spec.getReleased()).isEqualTo(second.released());
        assertThat(spec.getPoweredOff()).isEqualTo(second.poweredOff());
        assertThat(spec.getVersion()).isEqualTo(2L);
        assertThat(spec.getRecord().get("format").intValue()).isEqualTo(FenceRecordJson.FORMAT);
        assertThat(spec.getRecord().get("version").longValue()).isEqualTo(2L);
    }

    @Test
    @DisplayName("labels, annotations and finalizers an admin wrote are kept by later saves")
    void keepsAdminMetadata() {
        NodeFence first = store.save(FenceRecords.minimal("worker-1"));
        client.resources(NodeFenceResource.class).withName("worker-1").edit(nf -> {
            nf.getMetadata().getAnnotations().put("example.com/ticket", "OPS-42");
            nf.getMetadata().getLabels().put("team", "storage");
            nf.getMetadata().getFinalizers().add("example.com/keep");
            return nf;
        });

        store.save(FenceRecords.withReason(first, "after the admin"));

        NodeFenceResource stored = nodeFence("worker-1");
        assertThat(stored.getMetadata().getAnnotations()).containsEntry("example.com/ticket", "OPS-42");
        assertThat(stored.getMetadata().getLabels()).containsEntry("team", "storage")
                .containsEntry("app.kubernetes.io/managed-by", "remedy");
        assertThat(stored.getMetadata().getFinalizers()).contains("example.com/keep");
        assertThat(stored.getSpec().getReason()).isEqualTo("after the admin");
    }

    @Test
    @DisplayName("an annotation written between the store's read and its PUT makes the PUT conflict (409); the save "
            + "reads again, keeps the annotation and succeeds, because the record's version did not move")
    void metadataChangeBetweenReadAndWriteIsNotStale() {
        NodeFence first = store.save(FenceRecords.minimal("worker-1"));
        hooks.before(RequestHooks.putOf("worker-1"), 1, () -> client.resources(NodeFenceResource.class)
                .withName("worker-1").edit(nf -> {
                    nf.getMetadata().getAnnotations().put(AdminAnnotations.PAUSE, "alice");
                    return nf;
                }));

        NodeFence second = store.save(FenceRecords.withReason(first, "second"));

        assertThat(second.version()).isEqualTo(2);
        // two PUTs: the first carried the resourceVersion read before the annotation and got 409
        assertThat(hooks.sent()).filteredOn(s -> RequestHooks.putOf("worker-1").test(s)).hasSize(2);
        NodeFenceResource stored = nodeFence("worker-1");
        assertThat(stored.getMetadata().getAnnotations()).containsEntry(AdminAnnotations.PAUSE, "alice");
        assertThat(store.load("worker-1")).contains(second);
    }

    @Test
    @DisplayName("another writer saving the record between the store's read and its PUT makes the save stale (409), "
            + "and the other writer's record stays")
    void recordSavedBetweenReadAndWriteIsStale() {
        NodeFence first = store.save(FenceRecords.minimal("worker-1"));
        KubeFenceStateStore other = new KubeFenceStateStore(client);
        hooks.before(RequestHooks.putOf("worker-1"), 1, () -> other.save(FenceRecords.withReason(first, "other")));

        assertThatThrownBy(() -> store.save(FenceRecords.withReason(first, "mine")))
                .isInstanceOf(StaleRecordException.class)
                .hasMessageContaining("saving version 1").hasMessageContaining("holds version 2");
        assertThat(store.load("worker-1")).map(NodeFence::reason).contains("other");
    }

    @Test
    @DisplayName("a NodeFence whose record is of another format is lost with why, left out of loadAll, and replaced "
            + "only by a record with version 0")
    void unreadableRecord() throws Exception {
        store.save(FenceRecords.minimal("worker-good"));
        ObjectNode document = (ObjectNode) JSON.readTree(FenceRecordJson.write(FenceRecords.minimal("worker-bad")));
        document.put("format", 99);
        createRaw("worker-bad", document);

        assertThat(store.load("worker-bad")).isEmpty();
        assertThat(store.loadAll()).extracting(NodeFence::node).containsExactly("worker-good");
        assertThat(store.lostRecords()).containsOnlyKeys("worker-bad");
        assertThat(store.lostRecords().get("worker-bad")).contains("format 99 is not supported");
        assertThat(store.problems()).singleElement().asString().contains("NodeFence 'worker-bad'")
                .contains("kubectl get nodefence worker-bad -o yaml");

        assertThatThrownBy(() -> store.save(FenceRecords.minimal("worker-bad").withVersion(1)))
                .isInstanceOf(StaleRecordException.class).hasMessageContaining("holds version 0");
        NodeFence held = store.save(NodeFence.heldForAdmin("worker-bad", FenceRecords.minimal("x").decidedAt(),
                "record lost"));

        assertThat(held.version()).isEqualTo(1);
        assertThat(store.load("worker-bad")).contains(held);
        assertThat(store.lostRecords()).isEmpty();
        assertThat(store.problems()).isEmpty();
    }

    @Test
    @DisplayName("a NodeFence whose record names another node, or that has no record, is lost; deleting it by hand "
            + "clears it at the next loadAll")
    void recordOfAnotherNode() throws Exception {
        createRaw("worker-a", JSON.readTree(FenceRecordJson.write(FenceRecords.minimal("worker-b"))));
        createRaw("worker-c", null);

        assertThat(store.loadAll()).isEmpty();
        assertThat(store.lostRecords().get("worker-a")).contains("names node 'worker-b'");
        assertThat(store.lostRecords().get("worker-c")).contains("no spec.record");

        client.resources(NodeFenceResource.class).withName("worker-a").delete();
        store.delete("worker-c");

        assertThat(store.loadAll()).isEmpty();
        assertThat(store.lostRecords()).isEmpty();
    }

    @Test
    @DisplayName("loadAll asks for pages of the configured size and returns every record")
    void loadAllPages() {
        for (int i = 0; i < 5; i++) {
            store.save(FenceRecords.minimal("worker-" + i));
        }

        List<NodeFence> all = store.loadAll();

        assertThat(all).extracting(NodeFence::node)
                .containsExactlyInAnyOrder("worker-0", "worker-1", "worker-2", "worker-3", "worker-4");
        assertThat(hooks.sent()).filteredOn(s -> s.method().equals("GET") && s.pathAndQuery().contains("/nodefences?"))
                .isNotEmpty().allSatisfy(s -> assertThat(s.pathAndQuery()).contains("limit=2"));
    }

    @Test
    @DisplayName("a page size below 1 is refused")
    void pageSize() {
        assertThatThrownBy(() -> new KubeFenceStateStore(client, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pageSize is 0");
    }

    private NodeFenceResource nodeFence(String name) {
        return client.resources(NodeFenceResource.class).withName(name).get();
    }

    private void createRaw(String name, com.fasterxml.jackson.databind.JsonNode document) {
        NodeFenceResource resource = new NodeFenceResource();
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(Map.of()).build());
        NodeFenceSpec spec = new NodeFenceSpec();
        spec.setNode(name);
        spec.setRecord(document);
        resource.setSpec(spec);
        client.resources(NodeFenceResource.class).resource(resource).create();
    }
}
