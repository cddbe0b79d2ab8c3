package dev.remedy.fence.kube.machine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.rules.MachineRemediationState;
import dev.remedy.fence.kube.machine.MachineRemediationDriver.Write;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.DisplayName;

/**
 * The whole protocol from each of the 16 starting states, with the driver killed after its k-th HTTP write for every
 * k (the request after it is never sent; a new instance, with no memory of the old one, takes over with the start-up
 * sweep). Writes inside one step count too: the Node backup before the Node delete, the Node create before the backup
 * delete. It always completes, the Node is deleted only while its host reads off and held off, no second power cycle
 * starts, and the host ends powered on without the reboot request, the Machine without its annotation and the Node
 * back.
 */
@EnableKubernetesMockClient(crud = true)
class MachineRemediationCrashTest {

    private static final int MAX_ROUNDS = 30;

    KubernetesClient client;
    MachineWorld world;

    @BeforeEach
    void setUp() {
        world = new MachineWorld(client, "v1beta1");
    }

    static List<String> starts() {
        List<String> bits = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            bits.add(String.format("%4s", Integer.toBinaryString(i)).replace(' ', '0'));
        }
        return bits;
    }

    @ParameterizedTest(name = "from {0}")
    @MethodSource("starts")
    @DisplayName("from each starting state, a crash between any two writes still completes the protocol safely")
    void crashBetweenAnyTwoWrites(String bits) {
        MachineRemediationState start = MachineRemediationDriverTest.state(bits);
        CrashingClient counting = new CrashingClient(client);
        Run clean = run("c" + bits, start, counting, 0);
        long writes = counting.writes();
        if (start.needsRemediation() && start.nodeRefExists()) {
            assertThat(clean.steps).as("a remediated Machine's Node is deleted and restored")
                    .contains(Write.DELETE_NODE, Write.RESTORE_NODE);
        }
        for (int k = 1; k < writes; k++) {
            CrashingClient crashing = new CrashingClient(client);
            crashing.crashBeforeWrite(k + 1);
            Run crashed = run("k" + k + "x" + bits, start, crashing, k);
            assertThat(crashed.crashed).as("crashed after write %d of %d", k, writes).isTrue();
            assertThat(crashed.steps.stream().filter(Write.ADD_REBOOT_ANNOTATION::equals).count())
                    .as("no second power cycle after the crash after write %d", k)
                    .isEqualTo(clean.steps.stream().filter(Write.ADD_REBOOT_ANNOTATION::equals).count());
        }
    }

    /**
     * Runs the protocol for a new Machine {@code name} with a first driver on {@code first}'s client; when that
     * client crashes (before its {@code k+1}-th HTTP write), a new driver with no memory of it takes over.
     */
    private Run run(String name, MachineRemediationState start, CrashingClient first, int k) {
        world.create(name, start);
        Run run = new Run();
        try {
            assertThat(drive(driver(first.client()), name, run)).isTrue();
        } catch (CrashingClient.Crash crash) {
            run.crashed = true;
            MachineRemediationDriver second = driver(client);
            second.sweep(); // what start() does first: resume from the objects alone
            assertThat(drive(second, name, run)).as("the new instance completes after a crash after write %d", k)
                    .isTrue();
        }
        assertThat(world.state(name)).as("from %s: on, Node back, no annotation left", start)
                .isEqualTo(MachineRemediationDriverTest.state("1010"));
        return run;
    }

    /** Steps and lets the world move until neither has anything to do. */
    private boolean drive(MachineRemediationDriver driver, String name, Run run) {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Node before = world.nodeObject(name);
            Optional<Write> write = driver.step(MachineWorld.NAMESPACE, name);
            if (write.isPresent()) {
                run.steps.add(write.get());
                if (before != null && world.nodeObject(name) == null) {
                    MachineRemediationState now = world.state(name);
                    assertThat(now.poweredOn()).as("the Node is deleted only while its host reads off").isFalse();
                    assertThat(now.rebootAnnotation()).as("and is held off").isTrue();
                }
            } else if (!world.sync(name)) {
                return true;
            }
        }
        throw new AssertionError("no convergence within " + MAX_ROUNDS + " rounds: " + run.steps);
    }

    private static MachineRemediationDriver driver(KubernetesClient on) {
        return MachineRemediationDriver.builder(on).backupNamespace(MachineWorld.BACKUPS).build();
    }

    /** The protocol steps one run completed (a step cut by the crash is not among them), in order. */
    private static final class Run {
        final List<Write> steps = new ArrayList<>();
        boolean crashed;
    }
}
