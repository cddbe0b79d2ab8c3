package dev.remedy.fence.kube.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.TimeSource;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link KubeClusterOperations#awaitWorkloadsReleased} on fabric8's mock API server in CRUD mode, on fake time (no
 * test waits). Mock gap routed around: the field selector {@code spec.nodeName} matches nothing for pods, so they are
 * listed by {@link InMemoryPaging}; VolumeAttachments are listed and filtered as in production.
 */
@EnableKubernetesMockClient(crud = true)
class KubeWorkloadReleaseTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    KubernetesClient client;

    private final FakeTimeSource fake = new FakeTimeSource();
    private final AtomicInteger sleeps = new AtomicInteger();
    private final List<Runnable> atNextSleep = new ArrayList<>();

    /** The fake clock; each sleep advances it and runs what a test queued for it. */
    private final TimeSource time = new TimeSource() {
        @Override
        public long nanoTime() {
            return fake.nanoTime();
        }

        @Override
        public Instant instant() {
            return fake.instant();
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
            fake.sleep(duration);
            sleeps.incrementAndGet();
            List<Runnable> due = List.copyOf(atNextSleep);
            atNextSleep.clear();
            due.forEach(Runnable::run);
        }
    };

    private KubeClusterOperations cluster(boolean deleteAttachments) {
        return KubeClusterOperations.builder(client).time(time).pods(new InMemoryPaging(client))
                .releaseTimeout(TIMEOUT).deleteStaleVolumeAttachments(deleteAttachments).build();
    }

    private String newNode(int pods) {
        String node = "node-" + UUID.randomUUID();
        KubeFixtures.addNode(client, node, pods, "default");
        return node;
    }

    private VolumeAttachment attach(String name, String node) {
        return client.storage().v1().volumeAttachments().resource(new VolumeAttachmentBuilder().withNewMetadata()
                .withName(name).endMetadata().withNewSpec().withAttacher("csi.example.com").withNodeName(node)
                .withNewSource().withPersistentVolumeName("pv-" + name).endSource().endSpec().build()).create();
    }

    private boolean attachmentExists(String name) {
        return client.storage().v1().volumeAttachments().withName(name).get() != null;
    }

    @Test
    @DisplayName("a VolumeAttachment naming the node makes the wait time out on fake time with a message naming it; "
            + "it is not deleted when deletion is not allowed")
    void attachmentTimesOut() {
        String node = newNode(0);
        attach("va-stuck", node);

        assertThatThrownBy(() -> cluster(false).awaitWorkloadsReleased(node))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("node " + node + " are not released after PT5M")
                .hasMessageContaining("va-stuck")
                .hasMessageContaining("deleteStaleVolumeAttachments");
        assertThat(fake.elapsed()).isEqualTo(TIMEOUT);
        assertThat(attachmentExists("va-stuck")).isTrue();
    }

    @Test
    @DisplayName("with deletion allowed, a VolumeAttachment naming the node is deleted and the wait returns; one of "
            + "another node is untouched")
    void attachmentDeletedWhenAllowed() {
        String node = newNode(0);
        String other = newNode(0);
        attach("va-mine", node);
        attach("va-other", other);

        cluster(true).awaitWorkloadsReleased(node);

        assertThat(attachmentExists("va-mine")).isFalse();
        assertThat(attachmentExists("va-other")).isTrue();
    }

    @Test
    @DisplayName("without deletion, the wait returns once the attach/detach controller removes the VolumeAttachment")
    void attachmentDetachedMeanwhile() {
        String node = newNode(0);
        String other = newNode(0);
        attach("va-detaching", node);
        attach("va-other", other);
        atNextSleep.add(() -> client.storage().v1().volumeAttachments().withName("va-detaching").delete());

        cluster(false).awaitWorkloadsReleased(node);

        assertThat(sleeps.get()).isEqualTo(1);
        assertThat(attachmentExists("va-other")).isTrue();
    }

    @Test
    @DisplayName("the wait holds while a pod of the node is terminating, and returns once it is gone")
    void terminatingPodsWait() {
        String node = newNode(0);
        client.pods().inNamespace("default").resource(new PodBuilder(KubeFixtures.pod("default", "held", node))
                .editMetadata().addToFinalizers("example.com/hold").endMetadata().build()).create();
        cluster(false).deletePods(node);
        atNextSleep.add(() -> atNextSleep.add(() -> client.pods().inNamespace("default").withName("held")
                .edit(p -> new PodBuilder(p).editMetadata().withFinalizers().endMetadata().build())));

        cluster(false).awaitWorkloadsReleased(node);

        assertThat(sleeps.get()).isEqualTo(2);
        assertThat(KubeFixtures.podsOf(client, node)).isEmpty();
    }

    @Test
    @DisplayName("a pod that stays terminating makes the wait time out naming it")
    void terminatingPodTimesOut() {
        String node = newNode(1);
        client.pods().inNamespace("team-x").resource(new PodBuilder(KubeFixtures.pod("team-x", "held", node))
                .editMetadata().addToFinalizers("example.com/hold").endMetadata().build()).create();
        cluster(false).deletePods(node);

        assertThatThrownBy(() -> cluster(false).awaitWorkloadsReleased(node))
                .hasMessageContaining("1 pod(s) of node " + node + " still terminating (team-x/held)")
                .hasMessageContaining("the engine retries");
        assertThat(fake.elapsed()).isEqualTo(TIMEOUT);
    }
}
