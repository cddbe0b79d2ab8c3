package dev.remedy.fence.kube.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.store.FenceStateStore;
import dev.remedy.fence.kube.testing.RealApiServer;
import dev.remedy.test.conformance.FenceStateStoreContract;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link KubeFenceStateStore} meets the {@link FenceStateStore} contract on a real kube-apiserver and etcd, started
 * by fabric8's kube-api-test through {@link RealApiServer}: skipped, at once and without a download, when their
 * binaries are absent (the skip message says how to provide them).
 */
@DisplayName("KubeFenceStateStore on a real API server (kube-api-test)")
class KubeFenceStateStoreIT extends FenceStateStoreContract {

    private static final Duration ESTABLISHED = Duration.ofSeconds(60);

    @RegisterExtension
    static final RealApiServer API = new RealApiServer("the store contract");

    @BeforeAll
    static void applyCrd() {
        NodeFenceCrd.apply(API.client());
        NodeFenceCrd.awaitEstablished(API.client(), ESTABLISHED);
    }

    @Override
    protected FenceStateStore newStore() {
        KubernetesClient client = API.client();
        client.resources(NodeFenceResource.class).delete();
        KubeFenceStateStore store = new KubeFenceStateStore(client, 3);
        assertThat(client.resources(NodeFenceResource.class).list().getItems()).as("NodeFences left from the last "
                + "test").isEmpty();
        return store;
    }
}
