package dev.remedy.fence.kube.machine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.rules.MachineRemediationRules;
import dev.remedy.core.rules.MachineRemediationState;
import dev.remedy.fence.kube.cluster.KubeClusterOperations;
import dev.remedy.fence.kube.machine.MachineRemediationDriver.Write;
import dev.remedy.fence.kube.machine.internal.Metal3Objects;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the driver's tests run on the mock API server ({@link MachineRemediationDriverTest}) and on a real one
 * ({@code MachineRemediationDriverIT}): one truth-table row, and the whole protocol through the driver's informers.
 */
final class DriverRuns {

    private DriverRuns() {
    }

    /**
     * Sets up starting state {@code bits} (NRPA) as Machine {@code m<bits>}, evaluates once with {@code driver}, and
     * checks the objects against the row: the write {@code expected} ({@code -} for none) and nothing else.
     */
    static void row(MachineWorld world, MachineRemediationDriver driver, String bits, String expected) {
        String name = "m" + bits;
        MachineRemediationState start = MachineRemediationDriverTest.state(bits);
        world.create(name, start);
        List<String> before = world.versions(name);

        Optional<Write> write = driver.step(MachineWorld.NAMESPACE, name);

        Optional<Write> wanted = expected.equals("-") ? Optional.empty() : Optional.of(Write.valueOf(expected));
        assertThat(write).isEqualTo(wanted);
        MachineRemediationState after = world.state(name);
        assertThat(after).isEqualTo(new MachineRemediationState(
                start.nodeRefExists() && wanted.filter(Write.DELETE_NODE::equals).isEmpty(),
                start.needsRemediation() && wanted.filter(Write.REMOVE_NEEDS_REMEDIATION_ANNOTATION::equals).isEmpty(),
                start.poweredOn(),
                wanted.map(w -> w == Write.ADD_REBOOT_ANNOTATION ? Boolean.TRUE
                        : w == Write.REMOVE_REBOOT_ANNOTATION ? Boolean.FALSE : null)
                        .orElse(start.rebootAnnotation())));
        List<String> now = world.versions(name);
        assertThat(now.get(0)).as("the Machine is written only to remove its annotation")
                .isEqualTo(wanted.filter(Write.REMOVE_NEEDS_REMEDIATION_ANNOTATION::equals).isPresent() ? now.get(0)
                        : before.get(0));
        if (wanted.isEmpty()) {
            assertThat(now).as("no write at all").isEqualTo(before);
        }
        if (wanted.filter(Write.ADD_REBOOT_ANNOTATION::equals).isPresent()) {
            assertThat(Metal3Objects.annotation(world.hostObject(name), MachineRemediationRules.REBOOT_ANNOTATION))
                    .isEqualTo("{\"mode\":\"hard\"}");
        }
        if (wanted.filter(Write.DELETE_NODE::equals).isPresent()) {
            assertThat(world.client.configMaps().inNamespace(MachineWorld.BACKUPS)
                    .withName(KubeClusterOperations.backupName(MachineWorld.node(name))).get())
                    .as("the Node was backed up before it was deleted").isNotNull();
        }
    }

    /**
     * Starts a driver reading Machines in {@code version} on {@code world}'s server and lets Machine {@code name}
     * (created in state 1110: Node, annotation, powered on) be remediated through its informers while the world
     * moves (at most 200 rounds of 50 ms): the Node is deleted and restored, and the Machine ends in state 1010.
     */
    static void protocolThroughInformers(MachineWorld world, String version, String name)
            throws InterruptedException {
        protocolThroughInformers(world, version, name, false, Duration.ofSeconds(1));
    }

    /**
     * As {@link #protocolThroughInformers(MachineWorld, String, String)}, with the host named through a Metal3Machine
     * ({@code throughInfrastructure}) and the given resync (a long one: only the informers' events drive it).
     */
    static void protocolThroughInformers(MachineWorld world, String version, String name,
            boolean throughInfrastructure, Duration resync) throws InterruptedException {
        MachineRemediationState done = MachineRemediationDriverTest.state("1010");
        world.create(name, MachineRemediationDriverTest.state("1110"));
        if (throughInfrastructure) {
            world.hostThroughInfrastructure(name, true);
        }
        try (MachineRemediationDriver started = MachineRemediationDriver.builder(world.client).machineVersion(version)
                .backupNamespace(MachineWorld.BACKUPS).resync(resync).build()) {
            String firstNode = world.nodeObject(name).getMetadata().getUid();
            started.start();
            for (int i = 0; i < 200 && !world.state(name).equals(done); i++) {
                Thread.sleep(50);
                world.sync(name);
            }
            assertThat(world.nodeObject(name).getMetadata().getUid()).as("the Node was deleted and restored on the way")
                    .isNotEqualTo(firstNode);
            assertThat(world.machine(name).getMetadata().getAnnotations())
                    .doesNotContainKey(MachineRemediationRules.NEEDS_REMEDIATION);
            assertThat(world.state(name)).isEqualTo(done);
        }
    }
}
