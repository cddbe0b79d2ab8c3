package dev.remedy.fence.kube.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.engine.Taint;
import dev.remedy.fence.kube.cluster.internal.NodeEdits;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Taints, cordon and pod deletion of {@link KubeClusterOperations} beyond the contract, on fabric8's mock API server
 * in CRUD mode. Mock gaps routed around: the field selector {@code spec.nodeName} matches nothing and {@code limit}
 * is ignored, so pods are listed and paged by {@link InMemoryPaging}.
 */
@EnableKubernetesMockClient(crud = true)
class KubeClusterOperationsTest {

    private static final Taint FOREIGN = new Taint("example.com/maintenance", "planned", "NoSchedule");

    KubernetesClient client;
    KubernetesMockServer server;

    private final FakeTimeSource time = new FakeTimeSource(0, Instant.parse("2026-03-04T05:06:07.890Z"));

    private KubeClusterOperations cluster(InMemoryPaging paging, int pageSize) {
        return KubeClusterOperations.builder(client).time(time).pods(paging).podPageSize(pageSize).build();
    }

    private KubeClusterOperations cluster() {
        return cluster(new InMemoryPaging(client), 500);
    }

    private String newNode(int pods, String... namespaces) {
        String node = "node-" + UUID.randomUUID();
        KubeFixtures.addNode(client, node, pods, namespaces.length == 0 ? new String[] {"default"} : namespaces);
        return node;
    }

    @Test
    @DisplayName("a taint someone else adds between remedy's read and its write is kept: the stale write gets 409 and "
            + "is done again on a fresh read")
    void concurrentTaintIsKept() {
        String node = newNode(0);
        Node stale = client.nodes().withName(node).get();
        // someone else adds a taint after remedy's read, which the mock server answers with the node before it
        client.nodes().withName(node).edit(n -> {
            n.getSpec().setTaints(List.of(new TaintBuilder().withKey(FOREIGN.key()).withValue(FOREIGN.value())
                    .withEffect(FOREIGN.effect()).build()));
            return n;
        });
        server.expect().get().withPath("/api/v1/nodes/" + node).andReturn(200, stale).once();

        cluster().addTaint(node, Taint.FENCING);

        assertThat(KubeFixtures.taints(client, node)).containsExactlyInAnyOrder(FOREIGN, Taint.FENCING);
    }

    @Test
    @DisplayName("a taint removal on a stale read is done again on a fresh one, and keeps what someone else added")
    void concurrentTaintKeptOnRemoval() {
        String node = newNode(0);
        cluster().addTaint(node, Taint.FENCING);
        Node stale = client.nodes().withName(node).get();
        cluster().addTaint(node, FOREIGN);
        server.expect().get().withPath("/api/v1/nodes/" + node).andReturn(200, stale).once();

        cluster().removeTaint(node, Taint.FENCING);

        assertThat(KubeFixtures.taints(client, node)).containsExactly(FOREIGN);
    }

    @Test
    @DisplayName("a node that changes under every attempt fails the taint change with a message saying so, and "
            + "loses nothing")
    void conflictsBeyondTheBoundFail() {
        String node = newNode(0);
        Node stale = client.nodes().withName(node).get();
        cluster().addTaint(node, FOREIGN);
        server.expect().get().withPath("/api/v1/nodes/" + node).andReturn(200, stale).times(NodeEdits.ATTEMPTS);

        assertThatThrownBy(() -> cluster().addTaint(node, Taint.FENCING))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("node " + node)
                .hasMessageContaining(NodeEdits.ATTEMPTS + " times in a row (409 Conflict");
        assertThat(KubeFixtures.taints(client, node)).containsExactly(FOREIGN);
    }

    @Test
    @DisplayName("the out-of-service taint is added with timeAdded in RFC 3339 (whole seconds); a NoSchedule taint "
            + "without it")
    void outOfServiceHasTimeAdded() {
        String node = newNode(0);

        cluster().addTaint(node, Taint.OUT_OF_SERVICE);
        cluster().addTaint(node, Taint.FENCING);

        List<io.fabric8.kubernetes.api.model.Taint> taints = client.nodes().withName(node).get().getSpec()
                .getTaints();
        assertThat(taints).filteredOn(t -> t.getKey().equals(Taint.OUT_OF_SERVICE.key())).singleElement()
                .satisfies(t -> {
                    assertThat(t.getValue()).isEqualTo("nodeshutdown");
                    assertThat(t.getEffect()).isEqualTo("NoExecute");
                    assertThat(t.getTimeAdded()).isEqualTo("2026-03-04T05:06:07Z");
                });
        assertThat(taints).filteredOn(t -> t.getKey().equals(Taint.FENCING.key())).singleElement()
                .satisfies(t -> assertThat(t.getTimeAdded()).isNull());
    }

    @Test
    @DisplayName("the out-of-service taint is removed whatever its timeAdded, and a taint of the same key with "
            + "another value is left alone")
    void removalIgnoresTimeAdded() {
        String node = newNode(0);
        client.nodes().withName(node).edit(n -> {
            n.getSpec().setTaints(List.of(
                    new TaintBuilder().withKey(Taint.OUT_OF_SERVICE.key()).withValue("nodeshutdown")
                            .withEffect("NoExecute").withTimeAdded("2020-01-01T00:00:00Z").build(),
                    new TaintBuilder().withKey(Taint.OUT_OF_SERVICE.key()).withValue("other")
                            .withEffect("NoSchedule").build()));
            return n;
        });

        cluster().removeTaint(node, Taint.OUT_OF_SERVICE);

        assertThat(KubeFixtures.taints(client, node))
                .containsExactly(new Taint(Taint.OUT_OF_SERVICE.key(), "other", "NoSchedule"));
    }

    @Test
    @DisplayName("adding a taint whose key and effect the node has with another value replaces that value (one "
            + "taint per key and effect, as the API server requires)")
    void addTaintReplacesSameKeyAndEffect() {
        String node = newNode(0);
        cluster().addTaint(node, new Taint(Taint.FENCING.key(), "false", Taint.FENCING.effect()));

        cluster().addTaint(node, Taint.FENCING);

        assertThat(KubeFixtures.taints(client, node)).containsExactly(Taint.FENCING);
    }

    @Test
    @DisplayName("cordon changes spec.unschedulable only: labels, annotations and taints stay")
    void cordonTouchesOnlyUnschedulable() {
        String node = newNode(0);
        cluster().addTaint(node, FOREIGN);

        cluster().cordon(node);

        Node after = client.nodes().withName(node).get();
        assertThat(after.getSpec().getUnschedulable()).isTrue();
        assertThat(after.getMetadata().getLabels()).containsEntry("topology.kubernetes.io/zone", "zone-a");
        assertThat(after.getMetadata().getAnnotations()).containsEntry("example.com/rack", "r12");
        assertThat(KubeFixtures.taints(client, node)).containsExactly(FOREIGN);
    }

    @Test
    @DisplayName("cordon and addTaint of a node that does not exist fail naming it; removeTaint has nothing to do")
    void missingNode() {
        assertThatThrownBy(() -> cluster().cordon("ghost")).hasMessageContaining("cannot cordon node ghost")
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> cluster().addTaint("ghost", Taint.FENCING))
                .hasMessageContaining("node ghost").hasMessageContaining("does not exist");

        cluster().removeTaint("ghost", Taint.FENCING);

        assertThat(KubeFixtures.exists(client, "ghost")).isFalse();
    }

    @Test
    @DisplayName("deletePods pages through more pods than one page holds and deletes them all")
    void deletePodsPages() {
        String node = newNode(7);
        String other = newNode(2);
        InMemoryPaging paging = new InMemoryPaging(client);

        cluster(paging, 3).deletePods(node);

        assertThat(KubeFixtures.podsOf(client, node)).isEmpty();
        assertThat(paging.pages()).isEqualTo(3);
        assertThat(KubeFixtures.podsOf(client, other)).hasSize(2);
    }

    @Test
    @DisplayName("deletePods deletes the node's pods in every namespace and no pod of another node there")
    void deletePodsInEveryNamespace() {
        String node = newNode(6, "ns-a", "ns-b", "ns-c");
        String other = newNode(3, "ns-a", "ns-b", "ns-c");

        cluster().deletePods(node);

        assertThat(KubeFixtures.podsOf(client, node)).isEmpty();
        assertThat(KubeFixtures.podsOf(client, other)).extracting(p -> p.getMetadata().getNamespace())
                .containsExactlyInAnyOrder("ns-a", "ns-b", "ns-c");
    }

    @Test
    @DisplayName("deletePods deletes with grace period 0: a pod with a finalizer is left terminating, not waiting for "
            + "a kubelet")
    void deletePodsForces() throws InterruptedException {
        String node = newNode(0);
        client.pods().inNamespace("default").resource(new PodBuilder(KubeFixtures.pod("default", "held", node))
                .editMetadata().addToFinalizers("example.com/hold").endMetadata().build()).create();

        cluster().deletePods(node);

        // the mock server does not record the grace period on the pod: read it from the request
        RecordedRequest delete = server.getLastRequest();
        assertThat(delete.getMethod()).isEqualTo("DELETE");
        assertThat(delete.getPath()).isEqualTo("/api/v1/namespaces/default/pods/held");
        assertThat(delete.getUtf8Body()).contains("\"gracePeriodSeconds\":0");
        assertThat(KubeFixtures.podsOf(client, node)).singleElement()
                .satisfies(pod -> assertThat(pod.getMetadata().getDeletionTimestamp()).isNotNull());
    }

    @Test
    @DisplayName("the builder refuses a bad setting at once, naming it")
    void builderValidates() {
        KubeClusterOperations.Builder builder = KubeClusterOperations.builder(client);

        assertThatThrownBy(() -> builder.podPageSize(0)).hasMessageContaining("podPageSize");
        assertThatThrownBy(() -> builder.releaseTimeout(Duration.ZERO)).hasMessageContaining("releaseTimeout");
        assertThatThrownBy(() -> builder.pollInterval(Duration.ofSeconds(-1))).hasMessageContaining("pollInterval");
        assertThatThrownBy(() -> builder.backupNamespace("Not_A_Namespace"))
                .hasMessageContaining("backupNamespace").hasMessageContaining("Not_A_Namespace");
    }
}
