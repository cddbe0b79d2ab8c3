package dev.remedy.fence.kube.agent.internal;

import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Fences one KubeVirt VirtualMachine as {@code fence_kubevirt} does, stopping and starting it, with the power read
 * from its VirtualMachineInstance: OFF sets {@code spec.runStrategy: Halted} (or {@code spec.running: false} on a VM
 * that uses {@code running}) and waits until the instance is gone or in a final phase; ON sets {@code Always} (or
 * {@code running: true}) and waits for phase {@code Running}. Unlike {@code fence_kubevirt}, STATUS never reads OFF
 * for an instance that runs or may run: see {@link VirtualMachine#power}. LIST gives the namespace's VMs.
 */
public final class KubeVirtAgent extends KubeObjectAgent {

    /** An agent for VirtualMachine {@code namespace/vm} over {@code kube}. Does no I/O. */
    public KubeVirtAgent(KubeConnection kube, String namespace, String vm) {
        super(kube, "VirtualMachine", namespace, vm);
    }

    @Override
    String offDone() {
        return "stopped";
    }

    @Override
    String onAgain() {
        return "started again";
    }

    @Override
    FenceOutcome status(FenceContext context) throws InterruptedException {
        VirtualMachine machine = read(context);
        Optional<GenericKubernetesResource> instance = instance(context);
        PowerState power = VirtualMachine.power(instance);
        String detail = "VirtualMachine " + machine.ref() + " has " + VirtualMachine.describe(instance);
        if (power == PowerState.UNKNOWN) {
            return FenceOutcome.failed(PowerState.UNKNOWN, detail + ": the guest may still run, so its power is "
                    + "unknown; try again later");
        }
        return FenceOutcome.succeeded(power, detail);
    }

    @Override
    FenceOutcome monitor(FenceContext context) throws InterruptedException {
        VirtualMachine machine = read(context);
        return FenceOutcome.succeeded(PowerState.UNKNOWN, "VirtualMachine " + machine.ref() + " is readable");
    }

    @Override
    FenceOutcome off(FenceContext context) throws InterruptedException {
        VirtualMachine machine = read(context);
        if (!machine.stopped()) {
            context.progress("stopping VirtualMachine " + machine.ref());
            patch(context, "stop VirtualMachine " + machine.ref(), machine.powerField(), machine.stopValue());
        }
        return await(context, machine, "to stop (no VirtualMachineInstance, or one in phase Succeeded or Failed)",
                instance -> VirtualMachine.power(instance) == PowerState.OFF, PowerState.OFF);
    }

    @Override
    FenceOutcome on(FenceContext context) throws InterruptedException {
        VirtualMachine machine = read(context);
        if (!machine.started()) {
            context.progress("starting VirtualMachine " + machine.ref());
            patch(context, "start VirtualMachine " + machine.ref(), machine.powerField(), machine.startValue());
        }
        return await(context, machine, "to run (VirtualMachineInstance phase Running)",
                instance -> instance.filter(i -> VirtualMachine.phase(i).equals("Running")).isPresent(),
                PowerState.ON);
    }

    @Override
    FenceOutcome list(FenceContext context) throws InterruptedException {
        calls += 2;
        List<GenericKubernetesResource> machines = kube.call(context, "list VirtualMachines in " + namespace,
                client -> client.genericKubernetesResources(VirtualMachine.RESOURCE).inNamespace(namespace).list()
                        .getItems());
        Map<String, GenericKubernetesResource> instances = kube.call(context, "list VirtualMachineInstances in "
                + namespace, client -> client.genericKubernetesResources(VirtualMachine.INSTANCES)
                .inNamespace(namespace).list().getItems()).stream()
                .collect(Collectors.toMap(i -> i.getMetadata().getName(), Function.identity(), (a, b) -> a));
        List<Plug> plugs = machines.stream().map(m -> m.getMetadata().getName()).sorted()
                .map(name -> new Plug(name, "", VirtualMachine.power(Optional.ofNullable(instances.get(name)))))
                .toList();
        return FenceOutcome.succeeded(PowerState.UNKNOWN, plugs.size() + " VirtualMachines in namespace "
                + namespace).withPlugs(plugs);
    }

    private FenceOutcome await(FenceContext context, VirtualMachine machine, String goal,
            Predicate<Optional<GenericKubernetesResource>> reached, PowerState power)
            throws InterruptedException {
        AtomicReference<Optional<GenericKubernetesResource>> last = new AtomicReference<>(Optional.empty());
        return PowerPoll.until(context, kube.settings().pollInterval(), "VirtualMachine " + machine.ref() + " " + goal,
                () -> {
                    Optional<GenericKubernetesResource> instance = instance(context);
                    last.set(instance);
                    if (reached.test(instance)) {
                        return Optional.of(FenceOutcome.succeeded(power, "VirtualMachine " + machine.ref() + " has "
                                + VirtualMachine.describe(instance)));
                    }
                    return Optional.empty();
                }, () -> VirtualMachine.describe(last.get()));
    }

    private VirtualMachine read(FenceContext context) throws InterruptedException {
        String ref = namespace + "/" + name;
        calls++;
        GenericKubernetesResource resource = kube.call(context, "read VirtualMachine " + ref, client -> client
                .genericKubernetesResources(VirtualMachine.RESOURCE).inNamespace(namespace).withName(name).get());
        if (resource == null) {
            throw new ApiCallException("VirtualMachine " + ref + " was not found: check the vm (plug) and namespace"
                    + " parameters, and that KubeVirt is installed", false, null);
        }
        return VirtualMachine.of(resource);
    }

    private Optional<GenericKubernetesResource> instance(FenceContext context) throws InterruptedException {
        calls++;
        return Optional.ofNullable(kube.call(context, "read VirtualMachineInstance " + namespace + "/" + name,
                client -> client.genericKubernetesResources(VirtualMachine.INSTANCES).inNamespace(namespace)
                        .withName(name).get()));
    }

    private void patch(FenceContext context, String what, String field, Object value) throws InterruptedException {
        calls++;
        kube.call(context, what, client -> Patches.spec(client, VirtualMachine.RESOURCE, namespace, name, field, value));
    }
}
