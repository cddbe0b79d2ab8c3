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
 * The whole protocol from each of the 16 starting states, with the driver killed after its k-th write for every k (a
 * new instance, with no memory of the old one, takes over with the start-up sweep): it always completes, the Node is
 * deleted only while its host reads off and held off, and the host ends powered on without the reboot request, the
 * Machine without its annotation and the Node back.
 */
@EnableKubernetesMockClient(crud = true)
class MachineRemediationCrashTest {

    private static final int MAX_ROUNDS = 30;

    KubernetesClient client;
    MachineWorld world;
    TinyBmo bmo;

    @BeforeEach
    void setUp() {
        world = new MachineWorld(client, "v1beta1");
        bmo = new TinyBmo(world);
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
    @DisplayName("from each starting state, a crash after every write still completes the protocol safely")
    void crashAfterEveryWrite(String bits) {
        MachineRemediationState start = MachineRemediationDriverTest.state(bits);
        Run clean = run("c" + bits, start, Integer.MAX_VALUE);
        assertThat(clean.crashed).isFalse();
        if (start.needsRemediation() && start.nodeRefExists()) {
            assertThat(clean.writes).as("a remediated Machine's Node is deleted and restored")
                    .contains(Write.DELETE_NODE, Write.RESTORE_NODE);
        }
        for (int k = 1; k < clean.writes.size(); k++) {
            Run crashed = run("k" + k + "x" + bits, start, k);
            assertThat(crashed.crashed).as("crashed after write %d of %s", k, clean.writes).isTrue();
            assertThat(crashed.writes.subList(0, k)).as("the first instance's writes")
                    .isEqualTo(clean.writes.subList(0, k));
            assertThat(crashed.resumed).as("the new instance makes exactly the writes left, none twice")
                    .isEqualTo(clean.writes.size() - k);
        }
    }

    /** Runs the protocol for a new Machine {@code name}; the first driver dies after {@code crashAfter} writes. */
    private Run run(String name, MachineRemediationState start, int crashAfter) {
        world.create(name, start);
        Run run = new Run();
        MachineRemediationDriver first = driver();
        if (!drive(first, name, run, crashAfter)) {
            run.crashed = true;
            MachineRemediationDriver second = driver();
            int before = run.writes.size();
            run.resumed = second.sweep(); // what start() does first: resume from the annotations alone
            assertThat(drive(second, name, run, Integer.MAX_VALUE)).as("the new instance completes").isTrue();
            run.resumed += run.writes.size() - before;
        }
        assertThat(world.state(name)).as("from %s: on, Node back, no annotation left", start)
                .isEqualTo(MachineRemediationDriverTest.state("1010"));
        return run;
    }

    /** Steps and lets the world move until neither has anything to do; false when the crash point is reached. */
    private boolean drive(MachineRemediationDriver driver, String name, Run run, int crashAfter) {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Node before = world.nodeObject(name);
            Optional<Write> write = driver.step(MachineWorld.NAMESPACE, name);
            if (write.isPresent()) {
                run.writes.add(write.get());
                if (before != null && world.nodeObject(name) == null) {
                    MachineRemediationState now = world.state(name);
                    assertThat(now.poweredOn()).as("the Node is deleted only while its host reads off").isFalse();
                    assertThat(now.rebootAnnotation()).as("and is held off").isTrue();
                }
                if (run.writes.size() >= crashAfter) {
                    return false;
                }
            } else if (!bmo.sync(name)) {
                return true;
            }
        }
        throw new AssertionError("no convergence within " + MAX_ROUNDS + " rounds: " + run.writes);
    }

    private MachineRemediationDriver driver() {
        return MachineRemediationDriver.builder(client).backupNamespace(MachineWorld.BACKUPS).build();
    }

    /** The writes of one run, in order. */
    private final class Run {
        final List<Write> writes = new ArrayList<>();
        boolean crashed;
        /** How many writes the second instance made (its sweep's and its steps'). */
        int resumed;
    }
}
