package dev.remedy.fence.kube.agent.internal;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentReport;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.ResetAssumption;
import dev.remedy.core.nodeagent.ResetAssumption.Decision;
import dev.remedy.core.nodeagent.ResetAssumption.SeenNode;
import dev.remedy.fence.kube.config.NodeAgentSettingsMap;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code self-node} agent ({@link dev.remedy.fence.kube.agent.SelfNodeFenceAgentProvider}): reads what the
 * operator sees of a node and its agent, and lets {@link ResetAssumption} decide. Not thread-safe: one action at a
 * time.
 */
public final class SelfNodeAgent implements FenceAgent {

    /** The timestamp annotation of the poison-pill design's healthy side, on the Node. */
    public static final String MARK_ANNOTATION = "host.metal3.io/external-remediation";
    /** The namespace of the kubelets' heartbeat Leases. */
    static final String NODE_LEASE_NAMESPACE = "kube-node-lease";
    private static final PatchContext MERGE_PATCH = PatchContext.of(PatchType.JSON_MERGE);

    private final KubeConnection kube;
    private final String namespace;
    private final String node;

    /** An agent for {@code node}, whose agents run in {@code namespace}. Does no I/O. */
    public SelfNodeAgent(KubeConnection kube, String namespace, String node) {
        this.kube = kube;
        this.namespace = namespace;
        this.node = node;
    }

    @Override
    public FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        context.checkInterrupted();
        context.progress(request.action().code() + " self-node " + node);
        FenceOutcome outcome;
        try {
            outcome = switch (request.action()) {
                case OFF -> off(context);
                case STATUS -> status(context);
                case ON -> on(context);
                case MONITOR -> monitor(context);
                case REBOOT, LIST -> FenceOutcome.unsupported("self-node", request.action());
            };
        } catch (ApiCallException e) {
            outcome = (e.deadline() ? FenceOutcome.timedOut(e.getMessage())
                    : FenceOutcome.failed(PowerState.UNKNOWN, e.getMessage())).withCause(e);
        }
        return outcome.withElapsed(context.elapsed());
    }

    private FenceOutcome off(FenceContext context) throws InterruptedException {
        Instant now = context.time().instant();
        Decision decision = decide(context, node(context), now, now);
        if (decision instanceof ResetAssumption.Refuse) {
            return FenceOutcome.refused("not assuming that " + node + " resets itself: " + decision.reason());
        }
        String patch = "{\"metadata\":{\"annotations\":{\"" + MARK_ANNOTATION + "\":\"" + now + "\"}}}";
        kube.call(context, "mark node " + node, c -> c.nodes().withName(node).patch(MERGE_PATCH, patch));
        return FenceOutcome.succeeded(PowerState.UNKNOWN, "reset of " + node + " requested at " + now + "; "
                + describe(decision));
    }

    private FenceOutcome status(FenceContext context) throws InterruptedException {
        Instant now = context.time().instant();
        Node current = node(context);
        Optional<Instant> marked = mark(current);
        if (marked.isEmpty()) {
            return FenceOutcome.failed(PowerState.UNKNOWN, "no reset of " + node + " was requested (no "
                    + MARK_ANNOTATION + " annotation on the Node): run OFF first");
        }
        Decision decision = decide(context, current, marked.get(), now);
        if (decision instanceof ResetAssumption.Assume) {
            return FenceOutcome.succeeded(PowerState.OFF, "assumed reset after the safe time: " + decision.reason());
        }
        if (decision instanceof ResetAssumption.Wait wait) {
            return FenceOutcome.succeeded(PowerState.ON, "may still run until " + wait.until() + ": "
                    + decision.reason());
        }
        return FenceOutcome.failed(PowerState.UNKNOWN, "not assuming that " + node + " reset itself: "
                + decision.reason());
    }

    private FenceOutcome on(FenceContext context) throws InterruptedException {
        String patch = "{\"metadata\":{\"annotations\":{\"" + MARK_ANNOTATION + "\":null}}}";
        boolean found = kube.call(context, "unmark node " + node, c -> {
            try {
                c.nodes().withName(node).patch(MERGE_PATCH, patch);
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                    return false;
                }
                throw e;
            }
        });
        return FenceOutcome.succeeded(PowerState.UNKNOWN, (found ? "the reset request of " + node + " is withdrawn"
                : "node " + node + " has no Node object (deleted by the release), so no mark to remove")
                + "; the node boots by itself after its reset");
    }

    private FenceOutcome monitor(FenceContext context) throws InterruptedException {
        Optional<NodeAgentReport> report = reports(context).getOrDefault(node, Optional.empty());
        return report.map(r -> FenceOutcome.succeeded(PowerState.UNKNOWN, "the node agent of " + node + " reports "
                        + r.mode().code() + ", last at " + r.renewed()))
                .orElseGet(() -> FenceOutcome.failed(PowerState.UNKNOWN, "no report of the node agent of " + node
                        + " (Lease " + namespace + "/" + NodeAgentContract.leaseName(node) + ")"));
    }

    private Decision decide(FenceContext context, Node current, Instant markedAt, Instant now)
            throws InterruptedException {
        NodeAgentSettings settings = kube.call(context, "read the node agents' settings in " + namespace,
                c -> NodeAgentSettingsMap.read(c, namespace));
        List<Node> nodes = kube.call(context, "list nodes", c -> c.nodes().list().getItems());
        Map<String, Optional<NodeAgentReport>> reports = reports(context);
        List<SeenNode> cluster = new ArrayList<>();
        for (Node n : nodes) {
            String name = n.getMetadata().getName();
            cluster.add(new SeenNode(name, labels(n), reports.getOrDefault(name, Optional.empty())));
        }
        SeenNode self = new SeenNode(node, labels(current), reports.getOrDefault(node, Optional.empty()));
        return ResetAssumption.decide(settings, new ResetAssumption.Situation(self, lastSeen(context, current),
                markedAt, cluster), now);
    }

    private static String describe(Decision decision) {
        return decision instanceof ResetAssumption.Wait wait ? "assumed reset at " + wait.until() + " unless the agent"
                + " reports again: " + decision.reason() : "the safe time has passed: " + decision.reason();
    }

    private Node node(FenceContext context) throws InterruptedException {
        Node current = kube.call(context, "read node " + node, c -> c.nodes().withName(node).get());
        if (current == null) {
            throw new ApiCallException("node " + node + " does not exist: check the self-node method's node"
                    + " parameter", false, null);
        }
        return current;
    }

    /** Every agent's report in the namespace, by node (a Lease's holder). */
    private Map<String, Optional<NodeAgentReport>> reports(FenceContext context) throws InterruptedException {
        List<Lease> leases = kube.call(context, "list the node agents' Leases in " + namespace,
                c -> c.leases().inNamespace(namespace).list().getItems());
        Map<String, Optional<NodeAgentReport>> byNode = new HashMap<>();
        for (Lease lease : leases) {
            String name = lease.getMetadata().getName();
            if (!name.startsWith(NodeAgentContract.LEASE_PREFIX) || lease.getSpec() == null) {
                continue;
            }
            Map<String, String> annotations = lease.getMetadata().getAnnotations();
            byNode.put(name.substring(NodeAgentContract.LEASE_PREFIX.length()), NodeAgentReport.read(
                    lease.getSpec().getHolderIdentity(), annotations == null ? Map.of() : annotations,
                    lease.getSpec().getRenewTime() == null ? null : lease.getSpec().getRenewTime().toInstant()));
        }
        return byNode;
    }

    /** The kubelet's last heartbeat: its Lease in kube-node-lease, or its Ready condition's, whichever is later. */
    private Optional<Instant> lastSeen(FenceContext context, Node current) throws InterruptedException {
        Lease heartbeat = kube.call(context, "read the kubelet Lease of " + node,
                c -> c.leases().inNamespace(NODE_LEASE_NAMESPACE).withName(node).get());
        Optional<Instant> fromLease = Optional.ofNullable(heartbeat).map(Lease::getSpec)
                .map(s -> s.getRenewTime()).map(t -> t.toInstant());
        Optional<Instant> fromReady = Optional.ofNullable(current.getStatus())
                .flatMap(s -> Optional.ofNullable(s.getConditions())).stream().flatMap(List::stream)
                .filter(c -> "Ready".equals(c.getType())).map(NodeCondition::getLastHeartbeatTime)
                .flatMap(t -> parse(t).stream()).findFirst();
        if (fromLease.isPresent() && fromReady.isPresent()) {
            return Optional.of(fromLease.get().isAfter(fromReady.get()) ? fromLease.get() : fromReady.get());
        }
        return fromLease.isPresent() ? fromLease : fromReady;
    }

    private static Optional<Instant> mark(HasMetadata object) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        return annotations == null ? Optional.empty() : parse(annotations.get(MARK_ANNOTATION));
    }

    private static Optional<Instant> parse(String time) {
        if (time == null || time.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(time).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Map<String, String> labels(Node n) {
        Map<String, String> labels = n.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }

    @Override
    public void close() {
        kube.close();
    }
}
