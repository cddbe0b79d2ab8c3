package dev.remedy.fence.kube.ha;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentReport;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads the self-node-remediation agents' reports: the Lease {@link NodeAgentContract#leaseName} of a node, parsed
 * by {@link NodeAgentReport#read}, the one parser of what the agents write.
 */
public final class NodeAgentLeases {

    private NodeAgentLeases() {
    }

    /**
     * The last report of {@code node}'s agent in {@code namespace}. Blocks for one API call.
     *
     * @return the report, or empty when there is no Lease or it holds no usable report
     * @throws io.fabric8.kubernetes.client.KubernetesClientException if the API server cannot be read
     */
    public static Optional<NodeAgentReport> read(KubernetesClient client, String namespace, String node) {
        Objects.requireNonNull(client, "client");
        Lease lease = client.leases().inNamespace(Objects.requireNonNull(namespace, "namespace"))
                .withName(NodeAgentContract.leaseName(node)).get();
        if (lease == null || lease.getSpec() == null) {
            return Optional.empty();
        }
        Map<String, String> annotations = lease.getMetadata().getAnnotations();
        return NodeAgentReport.read(lease.getSpec().getHolderIdentity(), annotations == null ? Map.of() : annotations,
                lease.getSpec().getRenewTime() == null ? null : lease.getSpec().getRenewTime().toInstant());
    }
}
