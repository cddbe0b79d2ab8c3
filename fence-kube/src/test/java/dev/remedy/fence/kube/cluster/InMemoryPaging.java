package dev.remedy.fence.kube.cluster;

import dev.remedy.fence.kube.cluster.internal.NodePods;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pod listing for fabric8's mock server, which differs from a real API server twice: its field selector
 * {@code spec.nodeName} matches nothing, and it ignores {@code limit} (one page, no {@code continue}). This lists
 * every pod, keeps the node's, and pages them itself with a continue token that, like a real server's, skips no pod
 * when earlier ones are deleted while paging; it counts the pages asked for.
 */
final class InMemoryPaging implements NodePods {

    private final KubernetesClient client;
    private final AtomicInteger pages = new AtomicInteger();

    InMemoryPaging(KubernetesClient client) {
        this.client = client;
    }

    /** How many pages were asked for. */
    int pages() {
        return pages.get();
    }

    @Override
    public PodList page(String node, int limit, String continueToken) {
        pages.incrementAndGet();
        List<Pod> all = KubeFixtures.podsOf(client, node).stream()
                .sorted(Comparator.comparing(InMemoryPaging::key)).toList();
        // the token is the namespace/name of the next page's first pod: pods deleted meanwhile make none skipped
        int from = continueToken == null ? 0 : (int) all.stream().filter(p -> key(p).compareTo(continueToken) < 0)
                .count();
        int to = Math.min(all.size(), from + limit);
        String next = to < all.size() ? key(all.get(to)) : "";
        return new PodListBuilder().withItems(all.subList(from, to))
                .withMetadata(new ListMetaBuilder().withContinue(next).build()).build();
    }

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
}
