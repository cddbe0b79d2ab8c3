package dev.remedy.fence.kube.cluster;

import dev.remedy.core.engine.Taint;
import dev.remedy.test.conformance.ClusterOperationsContract;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * {@link ClusterOperationsContract} for an API server: nodes made and read with a plain client, never with the
 * implementation under test, their pods spread over {@link #NAMESPACES}. The mock server's test and the real API
 * server's IT extend it.
 */
abstract class KubeClusterContract extends ClusterOperationsContract {

    /** The namespaces a node's pods are spread over. */
    static final String[] NAMESPACES = {"team-a", "team-b"};

    /** The plain client the readers use. */
    protected abstract KubernetesClient client();

    @Override
    protected void addNode(String name, int pods) {
        KubeFixtures.addNode(client(), name, pods, NAMESPACES);
    }

    @Override
    protected boolean cordoned(String node) {
        return KubeFixtures.cordoned(client(), node);
    }

    @Override
    protected List<Taint> taints(String node) {
        return KubeFixtures.taints(client(), node);
    }

    @Override
    protected int pods(String node) {
        return KubeFixtures.podsOf(client(), node).size();
    }

    @Override
    protected boolean exists(String node) {
        return KubeFixtures.exists(client(), node);
    }
}
