package dev.remedy.fence.kube.cluster;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.Taint;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.conformance.ClusterOperationsContract;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;

/**
 * {@link KubeClusterOperations} keeps every promise of {@link ClusterOperations}, on fabric8's mock API server in
 * CRUD mode; the readers use the plain client. Mock gap routed around: the field selector {@code spec.nodeName}
 * matches nothing there, so the node's pods are listed by {@link InMemoryPaging} (every pod, filtered by
 * {@code spec.nodeName}); {@code KubeClusterOperationsIT} runs the same contract with the real selector on a real
 * API server.
 */
@EnableKubernetesMockClient(crud = true)
class KubeClusterOperationsContractTest extends ClusterOperationsContract {

    static final String[] NAMESPACES = {"team-a", "team-b"};

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
    protected void addNode(String name, int pods) {
        KubeFixtures.addNode(client, name, pods, NAMESPACES);
    }

    @Override
    protected boolean cordoned(String node) {
        return KubeFixtures.cordoned(client, node);
    }

    @Override
    protected List<Taint> taints(String node) {
        return KubeFixtures.taints(client, node);
    }

    @Override
    protected int pods(String node) {
        return KubeFixtures.podsOf(client, node).size();
    }

    @Override
    protected boolean exists(String node) {
        return KubeFixtures.exists(client, node);
    }
}
