package dev.remedy.fence.kube.agent;

import dev.remedy.fence.kube.agent.internal.KubeConnection;
import dev.remedy.fence.kube.agent.internal.Metal3Agent;
import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code metal3} agent: a metal3 {@code BareMetalHost} ({@code metal3.io/v1alpha1}) powered through the
 * bare-metal operator's reboot interface. OFF adds remedy's keyed request {@code reboot.metal3.io/remedy-<uid>} with
 * {@code {"mode":"hard"}} (keyed by the host's uid, so a retry after a crash finds it) and succeeds once
 * {@code status.poweredOn} reads false; the operator holds the host off while the request stays. ON removes it and
 * succeeds once {@code status.poweredOn} reads true. STATUS reads {@code status.poweredOn} (absent: FAILED, power
 * unknown). REBOOT is OFF confirmed, then ON. MONITOR reads the host.
 *
 * <p>Refused with the host and the reason: every action on a host annotated {@code baremetalhost.metal3.io/detached}
 * or {@code baremetalhost.metal3.io/paused}; OFF and REBOOT of a host whose {@code spec.online} is not true (its owner
 * keeps it off, so a powered-off reading would not prove remedy's fence) or which is not provisioned or externally
 * provisioned. STATUS of a host with {@code spec.online=false} reads its power as it is and says so. ON fails at once
 * when, after remedy's request is removed, another client's keyed request or {@code spec.online=false} keeps the
 * host off.
 *
 * <p>Parameters: {@code host} and {@code namespace} of the BareMetalHost (no default: metal3 installs use
 * {@code metal3}, OpenShift {@code openshift-machine-api}), and the connection ({@code kubeconfig}, {@code token},
 * {@code ssl_insecure}, {@code poll_interval} (default 2 s), {@code request_timeout}). The account needs get and patch
 * on {@code baremetalhosts.metal3.io}.
 *
 * <p>Class path: this module depends on fabric8's {@code kubernetes-client-api} only. An agent created with
 * {@link #create(dev.remedy.spi.config.AgentConfig)} builds its own client at its first action, which needs
 * {@code io.fabric8:kubernetes-client} and an HTTP client implementation at run time (remedy-cli has them); without
 * them the action fails, saying so. {@link #create(dev.remedy.spi.config.AgentConfig,
 * io.fabric8.kubernetes.client.KubernetesClient)} uses the host's client instead.
 */
@AgentType(Metal3FenceAgentProvider.TYPE)
public final class Metal3FenceAgentProvider extends KubeAgentProvider {

    /** The type id. */
    public static final String TYPE = "metal3";

    private static final List<ParameterDescriptor> TARGET = List.of(
            ParameterDescriptor.builder("host", ParameterType.STRING).required()
                    .description("name of the BareMetalHost").build(),
            ParameterDescriptor.builder("namespace", ParameterType.STRING).required().fenceAgentsName("namespace")
                    .description("namespace of the BareMetalHost (metal3, or openshift-machine-api on OpenShift)")
                    .build());

    /** Describes the {@code metal3} agent. */
    public Metal3FenceAgentProvider() {
        super(TYPE, TARGET, Duration.ofSeconds(2));
    }

    @Override
    FenceAgent agent(KubeConnection kube, String namespace, String name) {
        return new Metal3Agent(kube, namespace, name);
    }

    @Override
    public String description() {
        return "a metal3 BareMetalHost, powered off by a keyed reboot.metal3.io request and on by removing it";
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return EnumSet.of(FenceAction.ON, FenceAction.OFF, FenceAction.REBOOT, FenceAction.STATUS, FenceAction.MONITOR);
    }
}
