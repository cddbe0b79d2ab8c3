package dev.remedy.fence.kube.agent.internal;

import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the {@code kubevirt} agent reads from a KubeVirt {@code VirtualMachine} ({@code kubevirt.io/v1}) and the
 * {@code VirtualMachineInstance} of the same name that runs it.
 *
 * @param namespace   the VM's namespace
 * @param name        the VM's name
 * @param runStrategy {@code spec.runStrategy}; empty when the VM uses {@code spec.running}
 * @param running     {@code spec.running}; empty when absent
 */
public record VirtualMachine(String namespace, String name, Optional<String> runStrategy, Optional<Boolean> running) {

    /** The resource of VirtualMachines. */
    public static final ResourceDefinitionContext RESOURCE = resource("VirtualMachine", "virtualmachines");
    /** The resource of VirtualMachineInstances. */
    public static final ResourceDefinitionContext INSTANCES = resource("VirtualMachineInstance",
            "virtualmachineinstances");
    /** The run strategy that stops a VM and keeps it stopped. */
    public static final String HALTED = "Halted";
    /** The run strategy that starts a VM and keeps it running. */
    public static final String ALWAYS = "Always";

    /** Phases of an instance that is on its way to running: it may run at any moment. */
    private static final Set<String> STARTING = Set.of("Pending", "Scheduling", "Scheduled");
    /** Phases of an instance whose guest has stopped for good. */
    private static final Set<String> FINAL = Set.of("Succeeded", "Failed");

    /** Validates the fields. */
    public VirtualMachine {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(runStrategy, "runStrategy");
        Objects.requireNonNull(running, "running");
    }

    /** Reads the fields of {@code resource}. */
    public static VirtualMachine of(GenericKubernetesResource resource) {
        Object strategy = resource.get("spec", "runStrategy");
        Object running = resource.get("spec", "running");
        return new VirtualMachine(resource.getMetadata().getNamespace(), resource.getMetadata().getName(),
                strategy instanceof String s ? Optional.of(s) : Optional.empty(),
                running instanceof Boolean b ? Optional.of(b) : Optional.empty());
    }

    /**
     * The power of a VM whose instance is {@code instance} (empty: none): no instance or a final phase
     * ({@code Succeeded}, {@code Failed}) is OFF; {@code Running} and the phases on the way to it ({@code Pending},
     * {@code Scheduling}, {@code Scheduled}) are ON, since the guest runs or may run at any moment; any other phase
     * ({@code Unknown}: the node lost contact, the guest may still run; none yet) is UNKNOWN, never OFF.
     */
    public static PowerState power(Optional<GenericKubernetesResource> instance) {
        if (instance.isEmpty()) {
            return PowerState.OFF;
        }
        String phase = phase(instance.get());
        if (FINAL.contains(phase)) {
            return PowerState.OFF;
        }
        if (phase.equals("Running") || STARTING.contains(phase)) {
            return PowerState.ON;
        }
        return PowerState.UNKNOWN;
    }

    /** The {@code status.phase} of {@code instance}; empty when absent. */
    public static String phase(GenericKubernetesResource instance) {
        return Objects.requireNonNullElse(instance.get("status", "phase"), "");
    }

    /** The instance as read, for details: {@code no VirtualMachineInstance} or {@code VirtualMachineInstance phase X}. */
    public static String describe(Optional<GenericKubernetesResource> instance) {
        return instance.map(i -> "VirtualMachineInstance phase '" + phase(i) + "'").orElse("no VirtualMachineInstance");
    }

    /** The spec field the VM's power is asked with: {@code running} if it uses it, else {@code runStrategy}. */
    public String powerField() {
        return usesRunning() ? "running" : "runStrategy";
    }

    /** The value of {@link #powerField()} that stops the VM: {@code false} or {@code Halted}. */
    public Object stopValue() {
        return usesRunning() ? Boolean.FALSE : HALTED;
    }

    /** The value of {@link #powerField()} that starts the VM: {@code true} or {@code Always}. */
    public Object startValue() {
        return usesRunning() ? Boolean.TRUE : ALWAYS;
    }

    /** Whether the spec already asks for the VM to be stopped. */
    public boolean stopped() {
        return usesRunning() ? running.get().equals(false) : runStrategy.filter(HALTED::equals).isPresent();
    }

    /** Whether the spec already asks for the VM to run. */
    public boolean started() {
        return usesRunning() ? running.get().equals(true) : runStrategy.filter(ALWAYS::equals).isPresent();
    }

    /** {@code namespace/name}. */
    public String ref() {
        return namespace + "/" + name;
    }

    private boolean usesRunning() {
        return runStrategy.isEmpty() && running.isPresent();
    }

    private static ResourceDefinitionContext resource(String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup("kubevirt.io").withVersion("v1").withKind(kind)
                .withPlural(plural).withNamespaced(true).build();
    }
}
