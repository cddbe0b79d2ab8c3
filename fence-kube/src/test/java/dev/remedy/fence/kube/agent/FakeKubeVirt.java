package dev.remedy.fence.kube.agent;

import dev.remedy.fence.kube.agent.internal.VirtualMachine;
import dev.remedy.fence.kube.testing.RecordingTarget;
import dev.remedy.fence.kube.testing.Stepper;
import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * KubeVirt's side, for one VirtualMachine of the test namespace: each {@link #step()} reads the VM's spec
 * ({@code runStrategy} or {@code running}) and its VirtualMachineInstance, and moves the instance one phase, as
 * virt-controller and virt-handler would: a VM that should run gets a new instance in {@code Pending}, then
 * {@code Scheduling}, {@code Scheduled} and {@code Running}; a VM that should stop has its guest shut down
 * ({@code Succeeded}), then the instance deleted; an instance in a final phase of a VM that should run is deleted
 * and started again. {@code Manual} leaves the instance as it is.
 *
 * <p>Step-wise from a test, or on a thread started by {@link #start()} for the conformance kit.
 */
final class FakeKubeVirt implements AutoCloseable {

    private static final List<String> STARTING = List.of("Pending", "Scheduling", "Scheduled", "Running");
    private static final Set<String> FINAL = Set.of("Succeeded", "Failed");

    private final KubernetesClient client;
    private final String vm;
    private final RecordingTarget target = new RecordingTarget(this::power, this::set);
    private volatile Stepper stepper;

    FakeKubeVirt(KubernetesClient client, String vm) {
        this.client = client;
        this.vm = vm;
    }

    /** Moves the VM's instance one phase towards what its spec asks. */
    synchronized void step() {
        GenericKubernetesResource machine = client.genericKubernetesResources(VirtualMachine.RESOURCE)
                .inNamespace(KubeObjects.NAMESPACE).withName(vm).get();
        if (machine == null) {
            return;
        }
        Object strategy = machine.get("spec", "runStrategy");
        Object running = machine.get("spec", "running");
        if ("Manual".equals(strategy)) {
            return;
        }
        boolean run = strategy != null ? Set.of("Always", "RerunOnFailure").contains(strategy)
                : Boolean.TRUE.equals(running);
        GenericKubernetesResource instance = instances().withName(vm).get();
        String phase = instance == null ? null : VirtualMachine.phase(instance);
        if (run) {
            if (instance == null) {
                instances().resource(new GenericKubernetesResourceBuilder().withApiVersion("kubevirt.io/v1")
                        .withKind("VirtualMachineInstance").withNewMetadata().withName(vm)
                        .withNamespace(KubeObjects.NAMESPACE).endMetadata().build()).create();
                phase(STARTING.get(0));
            } else if (FINAL.contains(phase)) {
                instances().withName(vm).delete();
            } else if (STARTING.contains(phase) && !phase.equals("Running")) {
                String next = STARTING.get(STARTING.indexOf(phase) + 1);
                phase(next);
                if (next.equals("Running")) {
                    target.record(PowerState.ON);
                }
            }
        } else if (instance != null) {
            if (FINAL.contains(phase)) {
                instances().withName(vm).delete();
            } else {
                phase("Succeeded");
                target.record(PowerState.OFF);
            }
        }
    }

    /** Steps {@code times} times. */
    void steps(int times) {
        for (int i = 0; i < times; i++) {
            step();
        }
    }

    /** Sets the instance's {@code status.phase}, behind the controller's back too (a node that lost contact). */
    synchronized void phase(String phase) {
        GenericKubernetesResource instance = instances().withName(vm).get();
        instance.setAdditionalProperty("status", new LinkedHashMap<>(Map.of("phase", phase)));
        instances().resource(instance).updateStatus();
    }

    /** Starts a thread that steps every 5 ms until {@link #close()}. */
    void start() {
        stepper = Stepper.start("fake-kubevirt", this::step);
    }

    /** Stops the thread, if started, and fails if a step failed on it. */
    @Override
    public void close() throws InterruptedException {
        if (stepper != null) {
            stepper.close();
        }
    }

    /**
     * The VM as the conformance kit sees it: ON when its instance runs, OFF when it has none or one in a final phase;
     * setting ON or OFF writes the VM's run strategy and puts its instance in {@code Running} or deletes it.
     */
    PowerTarget target() {
        return target;
    }

    private PowerState power() {
        return VirtualMachine.power(Optional.ofNullable(instances().withName(vm).get()));
    }

    private synchronized void set(PowerState state) {
        boolean on = state == PowerState.ON;
        client.genericKubernetesResources(VirtualMachine.RESOURCE).inNamespace(KubeObjects.NAMESPACE).withName(vm)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runStrategy\":\""
                        + (on ? VirtualMachine.ALWAYS : VirtualMachine.HALTED) + "\"}}");
        if (on) {
            if (instances().withName(vm).get() == null) {
                instances().resource(new GenericKubernetesResourceBuilder().withApiVersion("kubevirt.io/v1")
                        .withKind("VirtualMachineInstance").withNewMetadata().withName(vm)
                        .withNamespace(KubeObjects.NAMESPACE).endMetadata().build()).create();
            }
            phase("Running");
        } else {
            instances().withName(vm).delete();
        }
        target.record(state);
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> instances() {
        return client.genericKubernetesResources(VirtualMachine.INSTANCES).inNamespace(KubeObjects.NAMESPACE);
    }
}
