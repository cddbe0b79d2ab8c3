package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.core.rules.MachineRemediationRules;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.fence.kube.remediation.NodeFenceRemediation;
import dev.remedy.fence.kube.remediation.RemediationController;
import dev.remedy.fence.kube.store.NodeFenceResource;
import dev.remedy.spi.config.Durations;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ClusterView} of a node agent on the fabric8 client. A node is named by a remediation signal when:
 * <ul>
 *   <li>its Node object no longer exists (deleting the Node is one way of releasing its workloads);</li>
 *   <li>its Cluster API Machine (the Node's {@value #MACHINE_ANNOTATION} and {@value #CLUSTER_NAMESPACE_ANNOTATION}
 *       annotations) carries {@code host.metal3.io/external-remediation};</li>
 *   <li>a {@code NodeFence} named like it is neither final nor in its recovery step (remedy is fencing it);</li>
 *   <li>a {@code NodeFenceRemediation} names it (the {@code remediation.medik8s.io/node-name} annotation, else an
 *       owner Machine that is the node's, else its own name), and is not being deleted.</li>
 * </ul>
 * A {@code NodeFence} or {@code NodeFenceRemediation} created before the node booted is ignored: that boot answered
 * it. Missing CRDs (no Cluster API, no remedy CRDs) mean no such signal. Each check reads the Node, its NodeFence,
 * its Machine and the NodeFenceRemediations (a list from the API server's cache); the Nodes (the peers) are listed
 * at the first check and every {@value #NODE_LIST_EVERY} checks after. The agent's Lease is
 * {@link NodeAgentContract#leaseName} in {@code namespace}.
 *
 * <p>Thread-safe; every call blocks on the API server (the agent bounds it).
 */
public final class KubeClusterView implements ClusterView {

    /** The Cluster API annotation of a Node that names its Machine. */
    public static final String MACHINE_ANNOTATION = "cluster.x-k8s.io/machine";
    /** The Cluster API annotation of a Node that names its Machine's namespace. */
    public static final String CLUSTER_NAMESPACE_ANNOTATION = "cluster.x-k8s.io/cluster-namespace";
    /** The default Cluster API version of Machines. */
    public static final String DEFAULT_MACHINE_VERSION = "v1beta1";

    /** The Nodes are listed (for the peers) at the first check and then every this many checks. */
    static final int NODE_LIST_EVERY = 20;
    /** Lists are served from the API server's watch cache. */
    private static final ListOptions CACHED = new ListOptionsBuilder().withResourceVersion("0").build();
    private static final String FINAL = "final";
    private static final String RECOVERY = "recovery";

    private final KubernetesClient client;
    private final String namespace;
    private final NodeAgentSettings settings;
    private final ResourceDefinitionContext machines;
    private List<PeerNode> peers;
    private int checksSinceList;

    /**
     * A view through {@code client}.
     *
     * @param client         the agent's client; its request timeout should not exceed {@code apiServerTimeout}
     * @param namespace      the agents' namespace (their Leases)
     * @param settings       the settings (their fingerprint goes into the Lease)
     * @param machineVersion the Cluster API version of Machines, such as {@value #DEFAULT_MACHINE_VERSION}
     */
    public KubeClusterView(KubernetesClient client, String namespace, NodeAgentSettings settings,
            String machineVersion) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.machines = new ResourceDefinitionContext.Builder().withGroup("cluster.x-k8s.io")
                .withVersion(Objects.requireNonNull(machineVersion, "machineVersion")).withKind("Machine")
                .withPlural("machines").withNamespaced(true).build();
    }

    @Override
    public SelfReport check(String node, Instant bootTime) {
        Node self = client.nodes().withName(node).get();
        Optional<String> signal = signal(node, self, bootTime);
        List<PeerNode> nodes;
        synchronized (this) {
            if (peers == null || ++checksSinceList >= NODE_LIST_EVERY) {
                List<PeerNode> listed = new ArrayList<>();
                for (Node n : client.nodes().list(CACHED).getItems()) {
                    listed.add(new PeerNode(n.getMetadata().getName(), labels(n), address(n)));
                }
                peers = List.copyOf(listed);
                checksSinceList = 0;
            }
            nodes = peers;
        }
        return new SelfReport(signal, self == null ? Map.of() : labels(self), nodes);
    }

    @Override
    public PeerAnswer judge(String node, Instant bootTime) {
        Node n = client.nodes().withName(node).get();
        return signal(node, n, bootTime).isPresent() ? PeerAnswer.UNHEALTHY : PeerAnswer.HEALTHY;
    }

    @Override
    public void report(String node, WatchdogMode mode, Optional<Duration> timeout, Instant renewed) {
        String name = NodeAgentContract.leaseName(node);
        Lease current = client.leases().inNamespace(namespace).withName(name).get();
        LeaseBuilder lease = current == null ? new LeaseBuilder().withNewMetadata().withName(name)
                .withNamespace(namespace).addToLabels(NodeAgentContract.NAME_LABEL, NodeAgentContract.NAME)
                .endMetadata() : new LeaseBuilder(current);
        lease.editMetadata().addToAnnotations(NodeAgentContract.WATCHDOG_ANNOTATION, mode.code())
                .addToAnnotations(NodeAgentContract.SETTINGS_ANNOTATION, settings.fingerprint()).endMetadata();
        if (timeout.isPresent()) {
            lease.editMetadata().addToAnnotations(NodeAgentContract.WATCHDOG_TIMEOUT_ANNOTATION,
                    Durations.format(timeout.get())).endMetadata();
        } else {
            lease.editMetadata().removeFromAnnotations(NodeAgentContract.WATCHDOG_TIMEOUT_ANNOTATION).endMetadata();
        }
        lease.editOrNewSpec().withHolderIdentity(node)
                .withLeaseDurationSeconds((int) NodeAgentContract.leaseDuration(settings).toSeconds())
                .withRenewTime(renewed.atZone(ZoneOffset.UTC)).endSpec();
        if (current == null) {
            lease.editSpec().withAcquireTime(renewed.atZone(ZoneOffset.UTC)).endSpec();
            client.leases().inNamespace(namespace).resource(lease.build()).create();
        } else {
            client.leases().inNamespace(namespace).resource(lease.build()).update();
        }
    }

    private Optional<String> signal(String node, Node self, Instant bootTime) {
        if (self == null) {
            return Optional.of("the Node object " + node + " no longer exists");
        }
        Optional<String> machine = machineSignal(self);
        if (machine.isPresent()) {
            return machine;
        }
        NodeFenceResource fence = client.resources(NodeFenceResource.class).withName(node).get();
        if (fence != null && fence.getMetadata().getDeletionTimestamp() == null && fence.getSpec() != null
                && !FINAL.equals(fence.getSpec().getState()) && !RECOVERY.equals(fence.getSpec().getStep())
                && after(fence, bootTime)) {
            return Optional.of("NodeFence " + node + " (step " + fence.getSpec().getStep() + ", state "
                    + fence.getSpec().getState() + ")");
        }
        Optional<String> machineName = machineName(self);
        for (NodeFenceRemediation r : remediations()) {
            if (r.getMetadata().getDeletionTimestamp() == null && after(r, bootTime)
                    && names(r, node, machineName)) {
                return Optional.of("NodeFenceRemediation " + r.getMetadata().getNamespace() + "/"
                        + r.getMetadata().getName());
            }
        }
        return Optional.empty();
    }

    private Optional<String> machineSignal(Node self) {
        Optional<String> machineName = machineName(self);
        String machineNamespace = annotation(self, CLUSTER_NAMESPACE_ANNOTATION);
        if (machineName.isEmpty() || machineNamespace == null) {
            return Optional.empty();
        }
        GenericKubernetesResource machine;
        try {
            machine = client.genericKubernetesResources(machines).inNamespace(machineNamespace)
                    .withName(machineName.get()).get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
        if (machine != null && annotation(machine, MachineRemediationRules.NEEDS_REMEDIATION) != null) {
            return Optional.of("Machine " + machineNamespace + "/" + machineName.get() + " is annotated "
                    + MachineRemediationRules.NEEDS_REMEDIATION);
        }
        return Optional.empty();
    }

    private List<NodeFenceRemediation> remediations() {
        try {
            return client.resources(NodeFenceRemediation.class).inAnyNamespace().list(CACHED).getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return List.of();
            }
            throw e;
        }
    }

    private static boolean names(NodeFenceRemediation r, String node, Optional<String> machineName) {
        String annotated = annotation(r, RemediationController.NODE_NAME);
        if (annotated != null && !annotated.isBlank()) {
            return annotated.equals(node);
        }
        List<OwnerReference> owners = r.getMetadata().getOwnerReferences();
        boolean byMachine = owners != null && owners.stream().anyMatch(o -> "Machine".equals(o.getKind())
                && o.getApiVersion() != null && o.getApiVersion().startsWith("cluster.x-k8s.io/"));
        if (byMachine) {
            return machineName.isPresent() && owners.stream().anyMatch(o -> "Machine".equals(o.getKind())
                    && machineName.get().equals(o.getName()));
        }
        return node.equals(r.getMetadata().getName());
    }

    private static boolean after(HasMetadata object, Instant bootTime) {
        String created = object.getMetadata().getCreationTimestamp();
        return created == null || !Instant.parse(created).isBefore(bootTime);
    }

    private static Optional<String> machineName(Node node) {
        return Optional.ofNullable(annotation(node, MACHINE_ANNOTATION)).filter(s -> !s.isBlank());
    }

    private static String annotation(HasMetadata object, String key) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }

    private static Map<String, String> labels(Node n) {
        return n.getMetadata().getLabels() == null ? Map.of() : n.getMetadata().getLabels();
    }

    /** The node's InternalIP, else its first address. */
    static Optional<String> address(Node n) {
        if (n.getStatus() == null || n.getStatus().getAddresses() == null) {
            return Optional.empty();
        }
        List<NodeAddress> addresses = n.getStatus().getAddresses();
        return addresses.stream().filter(a -> "InternalIP".equals(a.getType())).findFirst()
                .or(() -> addresses.stream().findFirst()).map(NodeAddress::getAddress);
    }
}
