package dev.remedy.fence.kube.machine;

import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import dev.remedy.fence.kube.machine.internal.Metal3Objects;
import dev.remedy.fence.kube.testing.MinimalCrds;
import dev.remedy.fence.kube.testing.RealApiServer;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The machine-remediation driver on a real kube-apiserver and etcd ({@link RealApiServer}: skipped at once, with the
 * reason logged, when kube-api-test's binaries are absent): a few truth-table rows, one of each write, evaluated once
 * as in {@link MachineRemediationDriverTest}, and the whole protocol through the driver's informers.
 *
 * <p>What the mock does differently, and this run checks: objects need their namespace; the minimal Machine and
 * BareMetalHost CRDs must be structural schemas a real server establishes; a status write bumps the object's
 * resourceVersion and a stale one gets 409 Conflict (the mock accepts it), so the driver's writes race the fake
 * operator's status writes as they would race metal3's; the informers run on a real server's watch (resourceVersions,
 * bookmarks, resync) instead of the mock's; the Node is deleted and created again by a real server's Node strategy.
 *
 * <p>Still not checked: there is no real bare-metal operator and no kubelet. The fake operator (the one the agent
 * tests use) moves {@code status.poweredOn} by remedy-core's model of metal3's reboot rules, and {@link MachineWorld}
 * registers the Node again as a kubelet would; there is no Cluster API controller ({@code status.nodeRef} is written
 * by the test); and only {@code v1beta1} Machines run here: the minimal CRD holds one version, and a real server
 * refuses to drop a version objects were stored in ({@link MachineRemediationDriverTest} runs {@code v1beta2} on the
 * mock).
 */
@DisplayName("the machine-remediation driver on a real API server (kube-api-test)")
class MachineRemediationDriverIT {

    private static final String VERSION = "v1beta1";
    private static final Duration ESTABLISHED = Duration.ofSeconds(60);

    @RegisterExtension
    static final RealApiServer API = new RealApiServer("the machine-remediation driver");

    MachineWorld world;
    MachineRemediationDriver driver;

    @BeforeAll
    static void installCrds() {
        new MachineWorld(API.client(), VERSION);
        MinimalCrds.awaitEstablished(API.client(), ESTABLISHED, Metal3Objects.machines(VERSION), BareMetalHost.RESOURCE);
    }

    @BeforeEach
    void setUp() {
        world = new MachineWorld(API.client(), VERSION);
        driver = MachineRemediationDriver.builder(API.client()).backupNamespace(MachineWorld.BACKUPS).build();
    }

    @ParameterizedTest(name = "row {0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # NRPA | the write
            0000 | -
            0001 | REMOVE_REBOOT_ANNOTATION
            0101 | REMOVE_NEEDS_REMEDIATION_ANNOTATION
            1100 | ADD_REBOOT_ANNOTATION
            1101 | DELETE_NODE
            1111 | -
            """)
    @DisplayName("a starting state, on real objects, ends in its row's state after one evaluation")
    void truthTableRow(String bits, String expected) {
        DriverRuns.row(world, driver, bits, expected);
    }

    @Test
    @DisplayName("started, the driver remediates a Machine through its informers: Node deleted and restored, host on")
    void informersDriveTheProtocol() throws InterruptedException {
        DriverRuns.protocolThroughInformers(world, VERSION, "w");
    }
}
