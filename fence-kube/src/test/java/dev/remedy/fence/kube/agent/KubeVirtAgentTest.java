package dev.remedy.fence.kube.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.kube.agent.internal.VirtualMachine;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code kubevirt} agent against VirtualMachines on the mock API server, with the fake KubeVirt stepped once at
 * every poll of the agent: the field a VM uses is kept, OFF and ON wait for the instance, STATUS never reads OFF for
 * an instance that runs or may run, LIST reads the namespace.
 */
@EnableKubernetesMockClient(crud = true)
class KubeVirtAgentTest {

    private static final Duration BUDGET = Duration.ofSeconds(30);
    private static final AtomicInteger VMS = new AtomicInteger();
    private static final KubeVirtFenceAgentProvider PROVIDER = new KubeVirtFenceAgentProvider();

    static KubernetesClient client;

    private String vm;
    private FakeKubeVirt kubevirt;
    private SteppingClock clock;

    @BeforeAll
    static void crds() {
        KubeObjects.installCrds(client);
    }

    /** A VM with {@code spec.<field>=value}, its instance moved as far as the fake takes it in 6 steps. */
    private void vm(String field, Object value) {
        vm = "vm-" + VMS.incrementAndGet();
        KubeObjects.vm(client, vm, field, value);
        kubevirt = new FakeKubeVirt(client, vm);
        kubevirt.steps(6);
        clock = new SteppingClock(kubevirt::step);
    }

    private FenceOutcome run(FenceAction action) throws InterruptedException {
        try (FenceAgent agent = PROVIDER.create(PROVIDER.configure().set("plug", vm)
                .set("namespace", KubeObjects.NAMESPACE).build(), client)) {
            return agent.execute(new FenceRequest(action, "test"), FenceContext.start(clock, BUDGET));
        }
    }

    @Test
    @DisplayName("OFF sets runStrategy Halted and succeeds once the instance is gone or final; ON sets Always and waits for Running")
    void runStrategyVm() throws InterruptedException {
        vm("runStrategy", "Always");
        assertThat(kubevirt.target().power()).isEqualTo(PowerState.ON);

        FenceOutcome off = run(FenceAction.OFF);
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.power()).isEqualTo(PowerState.OFF);
        assertThat(KubeObjects.vmSpec(client, vm)).containsEntry("runStrategy", "Halted").doesNotContainKey("running");
        assertThat(kubevirt.target().power()).isEqualTo(PowerState.OFF);

        FenceOutcome on = run(FenceAction.ON);
        assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(KubeObjects.vmSpec(client, vm)).containsEntry("runStrategy", "Always");
        assertThat(instancePhase()).isEqualTo("Running");
    }

    @Test
    @DisplayName("a VM that uses spec.running keeps it: OFF sets running=false, ON running=true, no runStrategy is added")
    void runningVm() throws InterruptedException {
        vm("running", true);

        assertThat(run(FenceAction.OFF).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(KubeObjects.vmSpec(client, vm)).containsEntry("running", false).doesNotContainKey("runStrategy");
        assertThat(run(FenceAction.ON).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(KubeObjects.vmSpec(client, vm)).containsEntry("running", true).doesNotContainKey("runStrategy");
        assertThat(kubevirt.target().history()).containsExactly(PowerState.ON, PowerState.OFF, PowerState.ON);
    }

    @ParameterizedTest(name = "phase {0} reads {1}")
    @CsvSource({"Running, ON", "Pending, ON", "Scheduling, ON", "Scheduled, ON", "Succeeded, OFF", "Failed, OFF"})
    @DisplayName("STATUS maps the instance's phase, counting the phases on the way to Running as on")
    void statusFromThePhase(String phase, PowerState power) throws InterruptedException {
        vm("runStrategy", "Always");
        kubevirt.phase(phase);

        FenceOutcome status = run(FenceAction.STATUS);

        assertThat(status.status()).as("%s", status).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(status.power()).isEqualTo(power);
        assertThat(status.detail()).contains(phase);
    }

    @Test
    @DisplayName("STATUS of an instance in phase Unknown fails with the power unknown, never OFF")
    void unknownPhaseIsNotOff() throws InterruptedException {
        vm("runStrategy", "Always");
        kubevirt.phase("Unknown");

        FenceOutcome status = run(FenceAction.STATUS);

        assertThat(status.status()).as("%s", status).isEqualTo(FenceStatus.FAILED);
        assertThat(status.power()).isEqualTo(PowerState.UNKNOWN);
        assertThat(status.detail()).contains("Unknown", "may still run");
    }

    @Test
    @DisplayName("STATUS of a VM without an instance reads OFF")
    void noInstanceIsOff() throws InterruptedException {
        vm("runStrategy", "Halted");

        FenceOutcome status = run(FenceAction.STATUS);

        assertThat(status.status()).as("%s", status).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(status.power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("LIST gives the namespace's VMs with the power of their instances")
    void listsTheNamespace() throws InterruptedException {
        vm("runStrategy", "Always");
        String running = vm;
        vm("runStrategy", "Halted");

        FenceOutcome list = run(FenceAction.LIST);

        assertThat(list.status()).as("%s", list).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(list.plugs()).contains(new Plug(running, "", PowerState.ON), new Plug(vm, "", PowerState.OFF));
    }

    @Test
    @DisplayName("a VirtualMachine that does not exist fails, naming it and the parameters to check")
    void missingVmFails() throws InterruptedException {
        vm = "no-such-vm";
        clock = new SteppingClock(() -> { });

        FenceOutcome off = run(FenceAction.OFF);

        assertThat(off.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains(KubeObjects.NAMESPACE + "/no-such-vm", "not found");
    }

    private String instancePhase() {
        return VirtualMachine.phase(client.genericKubernetesResources(VirtualMachine.INSTANCES)
                .inNamespace(KubeObjects.NAMESPACE).withName(vm).get());
    }
}
