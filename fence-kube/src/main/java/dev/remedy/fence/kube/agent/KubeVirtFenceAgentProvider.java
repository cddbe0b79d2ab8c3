package dev.remedy.fence.kube.agent;

import dev.remedy.fence.kube.agent.internal.KubeConnection;
import dev.remedy.fence.kube.agent.internal.KubeVirtAgent;
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
 * The {@code kubevirt} agent: a KubeVirt {@code VirtualMachine} ({@code kubevirt.io/v1}), stopped and started as
 * {@code fence_kubevirt} does, with its parameter names ({@code plug} for the VM, {@code namespace},
 * {@code kubeconfig}, {@code ssl_insecure}). OFF sets {@code spec.runStrategy: Halted} ({@code spec.running: false}
 * on a VM that uses {@code running}) and succeeds once the VM's VirtualMachineInstance is gone or in phase
 * {@code Succeeded} or {@code Failed}; ON sets {@code Always} ({@code running: true}) and succeeds at phase
 * {@code Running}. STATUS: no instance is OFF; {@code Running}, {@code Pending}, {@code Scheduling} and
 * {@code Scheduled} are ON (the guest runs or may run at any moment); {@code Unknown} or no phase fails with power
 * unknown, never OFF (where {@code fence_kubevirt} says off). LIST gives the VMs of the namespace with their power.
 *
 * <p>Unlike {@code fence_kubevirt}, which calls the {@code subresources.kubevirt.io} start and stop endpoints, the
 * agent writes the VM's spec, which those endpoints write too: a VM with the {@code Manual} or
 * {@code RerunOnFailure} strategy has {@code Halted} after OFF and {@code Always} after ON. The account needs get,
 * list and patch on {@code virtualmachines.kubevirt.io}, get and list on {@code virtualmachineinstances.kubevirt.io}.
 *
 * <p>Class path: as for {@link Metal3FenceAgentProvider}, an agent that builds its own client needs
 * {@code io.fabric8:kubernetes-client} and an HTTP client implementation at run time.
 */
@AgentType(KubeVirtFenceAgentProvider.TYPE)
public final class KubeVirtFenceAgentProvider extends KubeAgentProvider {

    /** The type id. */
    public static final String TYPE = "kubevirt";

    private static final List<ParameterDescriptor> TARGET = List.of(
            ParameterDescriptor.builder("vm", ParameterType.STRING).required().fenceAgentsName("plug")
                    .description("name of the VirtualMachine (fence_kubevirt's plug)").build(),
            ParameterDescriptor.builder("namespace", ParameterType.STRING).required().fenceAgentsName("namespace")
                    .description("namespace of the VirtualMachine").build());

    /** Describes the {@code kubevirt} agent. */
    public KubeVirtFenceAgentProvider() {
        super(TYPE, TARGET, Duration.ofSeconds(1));
    }

    @Override
    FenceAgent agent(KubeConnection kube, String namespace, String name) {
        return new KubeVirtAgent(kube, namespace, name);
    }

    @Override
    public String description() {
        return "a KubeVirt VirtualMachine, stopped and started like fence_kubevirt, its power read from its instance";
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return EnumSet.allOf(FenceAction.class);
    }
}
