package dev.remedy.fence.kube.store;

import dev.remedy.core.store.FenceStateStore;
import dev.remedy.test.conformance.FenceStateStoreContract;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.DisplayName;

/**
 * {@link KubeFenceStateStore} meets the {@link FenceStateStore} contract on fabric8's mock API server in CRUD mode
 * (a new, empty server for every test), with the shipped CRD applied first. The mock enforces the resourceVersion
 * of {@code update()} (409) and AlreadyExists on create, which is what the store's compare-and-set relies on.
 */
@DisplayName("KubeFenceStateStore on the mock API server")
@EnableKubernetesMockClient(crud = true)
class KubeFenceStateStoreContractTest extends FenceStateStoreContract {

    KubernetesClient client;

    @Override
    protected FenceStateStore newStore() {
        NodeFenceCrd.apply(client);
        return new KubeFenceStateStore(client);
    }
}
