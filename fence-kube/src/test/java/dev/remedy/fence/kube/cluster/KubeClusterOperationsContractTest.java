package dev.remedy.fence.kube.cluster;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;

/**
 * {@link KubeClusterOperations} keeps every promise of {@link ClusterOperations}, on fabric8's mock API server in
 * CRUD mode; the readers use the plain client. Mock gap routed around: the field selector {@code spec.nodeName}
 * matches nothing there, so the node's pods are listed by {@link InMemoryPaging} (every pod, filtered by
 * {@code spec.nodeName}); {@code KubeClusterOperationsIT} runs the same contract with the real selector on a real
 * API server.
 */
@EnableKubernetesMockClient(crud = true)
class KubeClusterOperationsContractTest extends KubeClusterContract {

    KubernetesClient client;
    private ClusterOperations cluster;

    @Override
    protected ClusterOperations cluster() {
        if (cluster == null) {
            cluster = KubeClusterOperations.builder(client).time(new FakeTimeSource())
                    .pods(new InMemoryPaging(client)).podPageSize(2).build();
        }
        return cluster;
    }

    @Override
    protected KubernetesClient client() {
        return client;
    }
}
