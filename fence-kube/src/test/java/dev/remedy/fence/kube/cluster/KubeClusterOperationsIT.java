package dev.remedy.fence.kube.cluster;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.fence.kube.testing.RealApiServer;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@link ClusterOperations} contract on a real kube-apiserver and etcd, started by {@code io.fabric8:kube-api-test}:
 * the field selector {@code spec.nodeName}, paging with {@code continue} (two pods a page), 409 Conflict on a stale
 * resourceVersion and API validation all as in a cluster. There is no kubelet or controller: pods deleted with grace
 * period 0 are gone at once.
 *
 * <p>The server comes from {@link RealApiServer}: skipped, at once and without a download, when kube-api-test's
 * binaries are absent (the skip message says how to provide them).
 */
class KubeClusterOperationsIT extends KubeClusterContract {

    @RegisterExtension
    static final RealApiServer API = new RealApiServer("the ClusterOperations contract");

    private ClusterOperations cluster;

    @BeforeAll
    static void createNamespaces() {
        for (String namespace : List.of(KubeClusterOperations.DEFAULT_BACKUP_NAMESPACE, "team-a", "team-b")) {
            API.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
                    .endMetadata().build()).create();
            // no controller manager creates it, and the ServiceAccount admission plugin requires it for pods
            API.client().serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder()
                    .withNewMetadata().withName("default").endMetadata().withAutomountServiceAccountToken(false)
                    .build()).create();
        }
    }

    @Override
    protected ClusterOperations cluster() {
        if (cluster == null) {
            // the production pod listing (field selector), two pods a page to exercise continue tokens
            cluster = KubeClusterOperations.builder(API.client()).time(new FakeTimeSource()).podPageSize(2).build();
        }
        return cluster;
    }

    @Override
    protected KubernetesClient client() {
        return API.client();
    }
}
