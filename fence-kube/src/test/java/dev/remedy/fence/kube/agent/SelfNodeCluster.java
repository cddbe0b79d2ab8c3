package dev.remedy.fence.kube.agent;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A cluster on the CRUD mock API server as the {@code self-node} agent reads it: Nodes with a rack label, the node
 * agents' Leases in {@value NodeAgentContract#DEFAULT_NAMESPACE} (as the agents write them) and the kubelets' Leases
 * in {@code kube-node-lease}.
 */
public final class SelfNodeCluster {

    public static final String NAMESPACE = NodeAgentContract.DEFAULT_NAMESPACE;
    public static final String RACK = NodeAgentSettings.RACK_LABEL;

    private final KubernetesClient client;

    public SelfNodeCluster(KubernetesClient client) {
        this.client = client;
    }

    /** Deletes every Node and Lease a previous test left. */
    public SelfNodeCluster clear() {
        client.nodes().delete();
        client.leases().inNamespace(NAMESPACE).delete();
        client.leases().inNamespace("kube-node-lease").delete();
        client.configMaps().inNamespace(NAMESPACE).delete();
        return this;
    }

    /** A Node {@code name} in {@code rack}, its kubelet last heard from at {@code heartbeat}. */
    public SelfNodeCluster node(String name, String rack, Instant heartbeat) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).addToLabels(RACK, rack)
                .endMetadata().withNewStatus().withConditions(new NodeConditionBuilder().withType("Ready")
                        .withStatus("Unknown").withLastHeartbeatTime(heartbeat.toString()).build())
                .endStatus().build()).create();
        client.leases().inNamespace("kube-node-lease").resource(new LeaseBuilder().withNewMetadata().withName(name)
                .endMetadata().withNewSpec().withHolderIdentity(name).withRenewTime(heartbeat.atZone(ZoneOffset.UTC))
                .endSpec().build()).createOr(existing -> existing.update());
        return this;
    }

    /** The Lease of {@code node}'s agent, as the agent writes it: renewed at {@code renewed}. */
    public SelfNodeCluster report(String node, WatchdogMode mode, String fingerprint, Instant renewed) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(NodeAgentContract.WATCHDOG_ANNOTATION, mode.code());
        if (mode == WatchdogMode.ARMED) {
            annotations.put(NodeAgentContract.WATCHDOG_TIMEOUT_ANNOTATION, "30s");
        }
        annotations.put(NodeAgentContract.SETTINGS_ANNOTATION, fingerprint);
        Lease lease = new LeaseBuilder().withNewMetadata().withName(NodeAgentContract.leaseName(node))
                .withNamespace(NAMESPACE).withAnnotations(annotations)
                .addToLabels(NodeAgentContract.NAME_LABEL, NodeAgentContract.NAME).endMetadata().withNewSpec()
                .withHolderIdentity(node).withRenewTime(renewed.atZone(ZoneOffset.UTC)).endSpec().build();
        client.leases().inNamespace(NAMESPACE).resource(lease).createOr(existing -> existing.update());
        return this;
    }

    /** The Lease of {@code node}'s agent with an armed watchdog and the default settings, renewed at {@code at}. */
    public SelfNodeCluster armed(String node, Instant at) {
        return report(node, WatchdogMode.ARMED, NodeAgentSettings.ofDefaults().fingerprint(), at);
    }

    /** The {@code self-node} provider whose agents use {@code client}, as an engine's registry sees it. */
    public static FenceAgentProvider provider(KubernetesClient client) {
        return new OverClient(new SelfNodeFenceAgentProvider(), client);
    }

    private record OverClient(SelfNodeFenceAgentProvider provider, KubernetesClient client)
            implements FenceAgentProvider {
        @Override
        public String type() {
            return provider.type();
        }

        @Override
        public String description() {
            return provider.description();
        }

        @Override
        public FencingKind fencingKind() {
            return provider.fencingKind();
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return provider.supportedActions();
        }

        @Override
        public List<ParameterDescriptor> parameters() {
            return provider.parameters();
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            return provider.create(config, client);
        }
    }

    /** The time remedy marked {@code node} for a reset, if it did. */
    public Optional<String> mark(String node) {
        Node n = client.nodes().withName(node).get();
        Map<String, String> annotations = n.getMetadata().getAnnotations();
        return Optional.ofNullable(annotations == null ? null
                : annotations.get(SelfNodeFenceAgentProvider.MARK_ANNOTATION));
    }
}
