package dev.remedy.examples.operator;

import dev.remedy.fence.kube.operator.RemedyOperator;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;

/**
 * The README's operator example: an operator of your own that already has a fabric8 client and a Micrometer
 * registry runs remedy's Kubernetes side on them, for the nodes of one pool. Nothing global: no second client, no
 * static state; closing it hands the shard's Lease to a standby.
 */
public final class EmbeddedOperator {

    private EmbeddedOperator() {
    }

    /**
     * Starts remedy for the nodes labelled {@code pool=<pool>}: the NodeFence CRD applied (if this operator may),
     * policies and fence topology read from the ConfigMaps {@code remedy-policies} and {@code remedy-fence} of
     * {@code namespace}, the pool's Lease campaigned for, and, while this replica leads, nodes watched and fenced.
     */
    public static RemedyOperator start(KubernetesClient client, MeterRegistry meters, String namespace, String pool,
                                       String podName) {
        NodeFenceCrd.apply(client);                                  // or: kubectl apply -f deploy/crds/
        RemedyOperator operator = RemedyOperator.builder(client)     // your client: no second one
                .namespace(namespace)
                .identity(podName)                                   // the Lease holder while it leads
                .shard(pool, Map.of("pool", pool))                   // one active engine per pool
                .agents(FenceAgentRegistry.load())                   // every agent on the class path
                .meters(meters)                                      // your registry: remedy.* meters
                .build();
        operator.start();                                            // close() hands the Lease over
        return operator;
    }
}
