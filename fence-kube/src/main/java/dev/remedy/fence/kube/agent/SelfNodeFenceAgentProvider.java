package dev.remedy.fence.kube.agent;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.ResetAssumption;
import dev.remedy.fence.kube.agent.internal.KubeConnection;
import dev.remedy.fence.kube.agent.internal.SelfNodeAgent;
import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code self-node} agent: the healthy side of self-node remediation, for nodes without a BMC whose node agent
 * ({@code remedy node-agent}) runs. Self fencing ({@link FencingKind#SELF}): it stands under power management, and
 * the flow records its OFF read back as {@code ASSUMED_RESET_AFTER_SAFE_TIME}, never as a power reading.
 *
 * <ul>
 *   <li>OFF reads the agents' settings (ConfigMap {@value NodeAgentContract#CONFIG_MAP}), the node, its agent's Lease,
 *       the other nodes and their agents' Leases, and decides with {@link ResetAssumption}: refused (REFUSED, with the
 *       reason, nothing changed) when the agent did not report an armed watchdog in time or with the operator's
 *       settings, or where the node side would stay up; otherwise it marks the Node with the design's timestamp
 *       annotation {@value #MARK_ANNOTATION} (RFC 3339; written again at each OFF, so that a mark left by an earlier
 *       flow never shortens the wait) and succeeds.</li>
 *   <li>STATUS decides again, from the mark: OFF once the safe time has passed (the reset is assumed), ON before
 *       (the node may still run), FAILED with the reason when refused meanwhile or never marked.</li>
 *   <li>ON removes the mark: the request is withdrawn; the node boots by itself after its reset.</li>
 *   <li>MONITOR reads the node's agent's Lease.</li>
 * </ul>
 *
 * <p>Put the power-management step's timeout above the safe time ({@code remedy node-agent --print-settings} prints
 * it): STATUS reads OFF only after it. Parameters: {@code node} (the Node's name), {@code namespace} of the agents
 * (default {@value NodeAgentContract#DEFAULT_NAMESPACE}), and the connection ({@code kubeconfig}, {@code token},
 * {@code ssl_insecure}, {@code request_timeout}; {@code poll_interval} is not used). The account needs get and patch
 * on nodes, get and list on nodes, get on the ConfigMap and list on Leases in the agents' namespace, and get on
 * Leases in {@code kube-node-lease}.
 */
@AgentType(SelfNodeFenceAgentProvider.TYPE)
public final class SelfNodeFenceAgentProvider extends KubeAgentProvider {

    /** The type id. */
    public static final String TYPE = "self-node";
    /**
     * The annotation on the Node with the time remedy asked it to reset, as the poison-pill design's healthy side
     * writes it (RFC 3339).
     */
    public static final String MARK_ANNOTATION = SelfNodeAgent.MARK_ANNOTATION;

    private static final List<ParameterDescriptor> TARGET = List.of(
            ParameterDescriptor.builder("node", ParameterType.STRING).required().fenceAgentsName("plug")
                    .description("name of the Node whose agent resets it").build(),
            ParameterDescriptor.builder("namespace", ParameterType.STRING)
                    .defaultValue(NodeAgentContract.DEFAULT_NAMESPACE)
                    .description("namespace of the node agents' ConfigMap and Leases").build());

    /** Describes the {@code self-node} agent. */
    public SelfNodeFenceAgentProvider() {
        super(TYPE, TARGET, Duration.ofSeconds(5));
    }

    @Override
    FenceAgent agent(KubeConnection kube, String namespace, String name) {
        return new SelfNodeAgent(kube, namespace, name);
    }

    @Override
    public String description() {
        return "self-node remediation's healthy side: assumes a node whose agent armed its watchdog reset itself"
                + " after the safe time";
    }

    @Override
    public FencingKind fencingKind() {
        return FencingKind.SELF;
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return EnumSet.of(FenceAction.OFF, FenceAction.ON, FenceAction.STATUS, FenceAction.MONITOR);
    }
}
