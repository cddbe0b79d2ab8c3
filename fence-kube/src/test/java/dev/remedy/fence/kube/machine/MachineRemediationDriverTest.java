package dev.remedy.fence.kube.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.rules.MachineRemediationRules;
import dev.remedy.core.rules.MachineRemediationState;
import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import dev.remedy.fence.kube.machine.MachineRemediationDriver.Write;
import dev.remedy.fence.kube.machine.internal.Metal3Objects;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The machine-remediation truth table on real objects: each of the 16 starting states is set up as a Machine, a
 * BareMetalHost and a Node on the mock API server, the driver evaluates once, and the objects are read back.
 */
@EnableKubernetesMockClient(crud = true)
class MachineRemediationDriverTest {

    KubernetesClient client;
    KubernetesMockServer server;
    MachineWorld world;
    MachineRemediationDriver driver;

    @BeforeEach
    void setUp() {
        world = new MachineWorld(client, "v1beta1");
        driver = MachineRemediationDriver.builder(client).backupNamespace(MachineWorld.BACKUPS).build();
    }

    @ParameterizedTest(name = "row {0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # NRPA | the write (the design's row, or the deviation of MachineRemediationRulesTest)
            0000 | -
            0001 | REMOVE_REBOOT_ANNOTATION
            0010 | -
            0011 | REMOVE_REBOOT_ANNOTATION
            0100 | ADD_REBOOT_ANNOTATION
            0101 | REMOVE_NEEDS_REMEDIATION_ANNOTATION
            0110 | ADD_REBOOT_ANNOTATION
            0111 | -
            1000 | -
            1001 | REMOVE_REBOOT_ANNOTATION
            1010 | -
            1011 | REMOVE_REBOOT_ANNOTATION
            1100 | ADD_REBOOT_ANNOTATION
            1101 | DELETE_NODE
            1110 | ADD_REBOOT_ANNOTATION
            1111 | -
            """)
    @DisplayName("each of the 16 starting states, on real objects, ends in its row's state after one evaluation")
    void truthTableRow(String bits, String expected) {
        DriverRuns.row(world, driver, bits, expected);
    }

    @Test
    @DisplayName("the deleted Node comes back from its backup, labels kept, while the host is still held off")
    void nodeRestoredBeforeRelease() {
        world.create("m", state("1101"));
        assertThat(driver.step(MachineWorld.NAMESPACE, "m")).contains(Write.DELETE_NODE);
        assertThat(driver.step(MachineWorld.NAMESPACE, "m")).contains(Write.REMOVE_NEEDS_REMEDIATION_ANNOTATION);

        assertThat(driver.step(MachineWorld.NAMESPACE, "m")).contains(Write.RESTORE_NODE);
        assertThat(world.state("m")).isEqualTo(state("1001"));
        assertThat(world.nodeObject("m").getMetadata().getLabels()).containsEntry("example.com/rack", "r7");

        assertThat(driver.step(MachineWorld.NAMESPACE, "m")).contains(Write.REMOVE_REBOOT_ANNOTATION);
        assertThat(driver.step(MachineWorld.NAMESPACE, "m")).isEmpty();
        assertThat(world.state("m")).isEqualTo(state("1000"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {BareMetalHost.PAUSED, BareMetalHost.DETACHED})
    @DisplayName("an unmanaged host gets no reboot request and its Node is not deleted; remedy withdraws its request")
    void unmanagedHost(String annotation) {
        world.create("m", state("1110"));
        pause("m", annotation, "");
        assertThat(driver.step(MachineWorld.NAMESPACE, "m")).as("no power off requested").isEmpty();

        world.create("n", state("1101"));
        pause("n", annotation, "");
        assertThat(driver.step(MachineWorld.NAMESPACE, "n")).as("withdrawn, not deleted")
                .contains(Write.REMOVE_REBOOT_ANNOTATION);
        assertThat(world.state("n")).as("the Node is kept; the Machine keeps its annotation").isEqualTo(state("1100"));
        assertThat(driver.step(MachineWorld.NAMESPACE, "n")).isEmpty();

        pause("n", annotation, null);
        assertThat(driver.step(MachineWorld.NAMESPACE, "n")).as("managed again: starts over")
                .contains(Write.ADD_REBOOT_ANNOTATION);
    }

    @Test
    @DisplayName("the sweep releases a host whose Machine is gone, and leaves other reboot requests alone")
    void sweepReleasesOrphanedHost() {
        world.create("m", state("1101"));
        world.create("other", state("0010"));
        world.client.genericKubernetesResources(BareMetalHost.RESOURCE).inNamespace(MachineWorld.NAMESPACE)
                .withName(MachineWorld.host("other")).edit(h -> {
                    h.getMetadata().getAnnotations().put("reboot.metal3.io/someone-else", "");
                    return h;
                });
        client.genericKubernetesResources(world.machines).inNamespace(MachineWorld.NAMESPACE).withName("m").delete();

        assertThat(driver.sweep()).isEqualTo(1);

        assertThat(world.hostObject("m").getMetadata().getAnnotations())
                .doesNotContainKey(MachineRemediationRules.REBOOT_ANNOTATION);
        assertThat(world.nodeObject("m")).as("no Machine: its Node is not ours to delete").isNotNull();
        assertThat(world.hostObject("other").getMetadata().getAnnotations())
                .containsKey("reboot.metal3.io/someone-else");
    }

    @ParameterizedTest(name = "reference with {0}")
    @ValueSource(strings = {"apiVersion", "apiGroup"})
    @DisplayName("a Machine without the host annotation finds its host through the Metal3Machine of its"
            + " spec.infrastructureRef (CAPM3), and the sweep keeps that host held off")
    void hostThroughMetal3Machine(String reference) {
        // mock gap: in CRUD mode the mock serves no API discovery (GET /apis/<group>), which a v1beta2 reference
        // (apiGroup only) needs for the version; it is answered here as a real server answers it
        server.expect().get().withPath("/apis/" + MachineWorld.METAL3_MACHINES.getGroup()).andReturn(200,
                new APIGroupBuilder().withName(MachineWorld.METAL3_MACHINES.getGroup()).withNewPreferredVersion()
                        .withGroupVersion(MachineWorld.METAL3_MACHINES.getGroup() + "/"
                                + MachineWorld.METAL3_MACHINES.getVersion())
                        .withVersion(MachineWorld.METAL3_MACHINES.getVersion()).endPreferredVersion().build()).always();
        world.create("c", state("1110"));
        world.hostThroughInfrastructure("c", reference.equals("apiVersion"));
        assertThat(Metal3Objects.annotation(world.machine("c"), Metal3Objects.HOST_ANNOTATION)).isNull();

        assertThat(driver.step(MachineWorld.NAMESPACE, "c")).contains(Write.ADD_REBOOT_ANNOTATION);
        assertThat(world.state("c")).isEqualTo(state("1111"));

        driver.sweep();
        assertThat(world.state("c")).as("the host is claimed by its Machine: not released").isEqualTo(state("1111"));
        world.sync("c");
        assertThat(driver.step(MachineWorld.NAMESPACE, "c")).contains(Write.DELETE_NODE);
    }

    @Test
    @DisplayName("started, the driver remediates a Machine through its informers, on Cluster API v1beta2")
    void informersDriveTheProtocol() throws InterruptedException {
        DriverRuns.protocolThroughInformers(new MachineWorld(client, "v1beta2"), "v1beta2", "w");
    }

    @Test
    @DisplayName("started, the driver remediates a Machine that names its host through a Metal3Machine, with no"
            + " resync during the run")
    void informersDriveHostsNamedThroughMetal3Machines() throws InterruptedException {
        DriverRuns.protocolThroughInformers(world, "v1beta1", "i", true, Duration.ofMinutes(10));
    }

    @Test
    @DisplayName("started, a host named through a Metal3Machine that is managed again brings its Machine's"
            + " remediation at once, not at the next resync")
    void hostManagedAgainThroughMetal3Machine() throws Exception {
        world.create("u", state("1110"));
        world.hostThroughInfrastructure("u", true);
        pause("u", BareMetalHost.PAUSED, "");
        try (MachineRemediationDriver started = MachineRemediationDriver.builder(client)
                .backupNamespace(MachineWorld.BACKUPS).resync(Duration.ofMinutes(10)).build()) {
            started.start();
            Thread.sleep(500); // the first sweep finds the host paused: nothing to do
            assertThat(world.state("u")).isEqualTo(state("1110"));

            pause("u", BareMetalHost.PAUSED, null);
            for (int i = 0; i < 200 && !world.state("u").rebootAnnotation(); i++) {
                Thread.sleep(50);
            }
            assertThat(world.state("u")).as("powered off on the host's change").isEqualTo(state("1111"));
        }
    }

    @Test
    @DisplayName("an unknown Machine version is refused with the versions remedy reads")
    void unknownVersion() {
        assertThatThrownBy(() -> MachineRemediationDriver.builder(client).machineVersion("v1alpha3"))
                .hasMessageContaining("v1beta1 or v1beta2");
    }

    private void pause(String machine, String annotation, String value) {
        GenericKubernetesResource host = world.hostObject(machine);
        new Metal3Objects(client, "v1beta1").annotate(BareMetalHost.RESOURCE, host, annotation, value);
    }

    static MachineRemediationState state(String bits) {
        return new MachineRemediationState(bits.charAt(0) == '1', bits.charAt(1) == '1', bits.charAt(2) == '1',
                bits.charAt(3) == '1');
    }
}
