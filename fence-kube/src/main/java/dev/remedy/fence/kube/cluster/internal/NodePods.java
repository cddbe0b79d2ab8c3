package dev.remedy.fence.kube.cluster.internal;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * One page of the pods bound to a node, in all namespaces. The production listing asks the API server with the
 * field selector {@code spec.nodeName=<node>}, so a cluster of 100,000 pods sends only the node's pods, a page at
 * a time; pods are never watched.
 */
@FunctionalInterface
public interface NodePods {

    /**
     * The page of pods bound to {@code node} that {@code continueToken} points to.
     *
     * @param node          the node name
     * @param limit         at most this many pods in the page
     * @param continueToken the previous page's {@code metadata.continue}, {@code null} for the first page
     * @return the page; its {@code metadata.continue} is empty on the last page
     */
    PodList page(String node, int limit, String continueToken);

    /** Lists through the API server with the field selector {@code spec.nodeName}, across all namespaces. */
    static NodePods byFieldSelector(KubernetesClient client) {
        return (node, limit, continueToken) -> client.pods().inAnyNamespace().list(new ListOptionsBuilder()
                .withFieldSelector("spec.nodeName=" + node)
                .withLimit((long) limit)
                .withContinue(continueToken)
                .build());
    }
}
