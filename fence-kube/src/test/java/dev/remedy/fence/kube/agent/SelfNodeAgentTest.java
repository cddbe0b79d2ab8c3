package dev.remedy.fence.kube.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.NodeAgentSettingsReader;
import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The {@code self-node} agent on the mock API server with a fake clock: six nodes in three racks, n1 silent since
 * T0 - 20 s, the other agents renewing their Leases. With the default settings the safe time of six nodes is 195 s
 * and a round of peers 30 s (batches of 3, 1 and 1), so a reset requested at T0 is assumed at T0 + 225 s.
 */
@EnableKubernetesMockClient(crud = true)
class SelfNodeAgentTest {

    private static final SelfNodeFenceAgentProvider PROVIDER = new SelfNodeFenceAgentProvider();
    private static final Duration BUDGET = Duration.ofSeconds(30);
    private static final List<String> PEERS = List.of("n2", "n3", "n4", "n5", "n6");

    static KubernetesClient client;

    private final FakeTimeSource time = new FakeTimeSource();
    private final Instant t0 = time.instant();
    private SelfNodeCluster cluster;

    @BeforeEach
    void cluster() {
        cluster = new SelfNodeCluster(client).clear();
        cluster.node("n1", "r1", t0.minusSeconds(15)).node("n2", "r1", t0).node("n3", "r2", t0).node("n4", "r2", t0)
                .node("n5", "r3", t0).node("n6", "r3", t0);
        cluster.armed("n1", t0.minusSeconds(20));
        peersReport();
    }

    /** The healthy agents renew their Leases now. */
    private void peersReport() {
        PEERS.forEach(p -> cluster.armed(p, time.instant()));
    }

    private FenceOutcome run(FenceAction action) throws InterruptedException {
        try (FenceAgent agent = PROVIDER.create(PROVIDER.configure().set("node", "n1").build(), client)) {
            return agent.execute(new FenceRequest(action, "test"), FenceContext.start(time, BUDGET));
        }
    }

    /** Moves the clock to {@code t0 + at}, the healthy agents renewing meanwhile, and reads STATUS. */
    private FenceOutcome statusAt(Duration at) throws InterruptedException {
        time.advance(Duration.between(time.instant(), t0.plus(at)));
        peersReport();
        return run(FenceAction.STATUS);
    }

    @Test
    @DisplayName("the provider is self fencing with OFF, ON, STATUS and MONITOR, and the node parameter is required")
    void describesItself() {
        assertThat(PROVIDER.fencingKind()).isEqualTo(FencingKind.SELF);
        assertThat(PROVIDER.type()).isEqualTo("self-node");
        assertThat(PROVIDER.supportedActions()).containsExactlyInAnyOrder(FenceAction.OFF, FenceAction.ON,
                FenceAction.STATUS, FenceAction.MONITOR);
        assertThat(PROVIDER.configure().build().validate()).anySatisfy(p -> assertThat(p.path())
                .isEqualTo("node"));
    }

    @Test
    @DisplayName("armed: OFF marks the Node with the time; STATUS reads ON until the safe time after the mark plus a"
            + " round of peers, OFF from then on; ON removes the mark")
    void armedIsAssumedAfterTheSafeTimeNotBefore() throws InterruptedException {
        FenceOutcome off = run(FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.detail()).contains("assumed reset at " + t0.plusSeconds(225));
        assertThat(cluster.mark("n1")).contains(t0.toString());

        FenceOutcome early = statusAt(Duration.ofSeconds(225).minusMillis(1));
        assertThat(early.status()).as("%s", early).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(early.power()).isEqualTo(PowerState.ON);
        assertThat(early.detail()).contains("may still run until " + t0.plusSeconds(225));

        FenceOutcome due = statusAt(Duration.ofSeconds(225));
        assertThat(due.status()).as("%s", due).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(due.power()).isEqualTo(PowerState.OFF);
        assertThat(due.detail()).startsWith("assumed reset after the safe time").contains("watchdog armed");

        assertThat(run(FenceAction.ON).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(cluster.mark("n1")).isEmpty();
        FenceOutcome unmarked = run(FenceAction.STATUS);
        assertThat(unmarked.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(unmarked.detail()).contains("no reset of n1 was requested");
    }

    @Test
    @DisplayName("the safe time comes from the agents' ConfigMap: its settings, reported by the agents, wait longer")
    void settingsFromTheConfigMap() throws InterruptedException {
        NodeAgentSettings settings = NodeAgentSettingsReader.parse("safeTime: 400s\n", "test");
        client.configMaps().inNamespace(SelfNodeCluster.NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(NodeAgentContract.CONFIG_MAP).endMetadata().addToData(NodeAgentContract.SETTINGS_KEY,
                        settings.toYaml()).build()).create();
        FenceOutcome before = run(FenceAction.OFF);
        assertThat(before.status()).isEqualTo(FenceStatus.REFUSED);
        assertThat(before.detail()).contains("not the operator's " + settings.fingerprint());

        cluster.report("n1", WatchdogMode.ARMED, settings.fingerprint(), t0.minusSeconds(20));
        FenceOutcome off = run(FenceAction.OFF);
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.detail()).contains("assumed reset at " + t0.plusSeconds(430));
    }

    @Test
    @DisplayName("watchdog none or software-reboot, a stale report, other settings, no Lease: OFF is refused with the"
            + " reason and the Node is not marked")
    void notAssumed() throws InterruptedException {
        String fingerprint = NodeAgentSettings.ofDefaults().fingerprint();
        cluster.report("n1", WatchdogMode.NONE, fingerprint, t0.minusSeconds(20));
        assertRefused("reported watchdog none");

        cluster.report("n1", WatchdogMode.SOFTWARE_REBOOT, fingerprint, t0.minusSeconds(20));
        assertRefused("reported watchdog software-reboot");

        cluster.report("n1", WatchdogMode.ARMED, fingerprint, t0.minusSeconds(60));
        assertRefused("last reported at " + t0.minusSeconds(60));

        cluster.report("n1", WatchdogMode.ARMED, "0123456789abcdef", t0.minusSeconds(20));
        assertRefused("runs with settings 0123456789abcdef");

        client.leases().inNamespace(SelfNodeCluster.NAMESPACE).withName(NodeAgentContract.leaseName("n1")).delete();
        assertRefused("has no report");
    }

    private void assertRefused(String reason) throws InterruptedException {
        FenceOutcome off = run(FenceAction.OFF);
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.REFUSED);
        assertThat(off.detail()).contains("not assuming that n1 resets itself").contains(reason);
        assertThat(cluster.mark("n1")).isEmpty();
    }

    @Test
    @DisplayName("a rack cut off as a whole (n1's rack-mate silent too): OFF refused; a rack-mate that goes silent"
            + " after the request makes STATUS fail instead of reading OFF")
    void rackCutOffIsRefused() throws InterruptedException {
        cluster.armed("n2", t0.minusSeconds(60));
        FenceOutcome off = run(FenceAction.OFF);
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.REFUSED);
        assertThat(off.detail()).contains("failure domain " + SelfNodeCluster.RACK + "=r1").contains("cut off as a"
                + " whole");
        assertThat(cluster.mark("n1")).isEmpty();

        cluster.armed("n2", t0);
        assertThat(run(FenceAction.OFF).status()).isEqualTo(FenceStatus.SUCCEEDED);
        time.advance(Duration.ofSeconds(225));
        List.of("n3", "n4", "n5", "n6").forEach(p -> cluster.armed(p, time.instant()));
        FenceOutcome status = run(FenceAction.STATUS);
        assertThat(status.status()).as("%s", status).isEqualTo(FenceStatus.FAILED);
        assertThat(status.detail()).contains("cut off as a whole");
    }

    @Test
    @DisplayName("ON of a node whose Node object is gone (the DELETE_NODE release) succeeds: no mark to remove")
    void onWithoutTheNodeObject() throws InterruptedException {
        client.nodes().withName("n1").delete();

        FenceOutcome on = run(FenceAction.ON);

        assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(on.detail()).contains("no Node object");
    }

    @Test
    @DisplayName("MONITOR reads the node agent's report, and fails naming the Lease when there is none")
    void monitorReadsTheReport() throws InterruptedException {
        FenceOutcome monitor = run(FenceAction.MONITOR);

        assertThat(monitor.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(monitor.detail()).contains("reports armed");

        client.leases().inNamespace(SelfNodeCluster.NAMESPACE).withName(NodeAgentContract.leaseName("n1")).delete();
        FenceOutcome none = run(FenceAction.MONITOR);
        assertThat(none.status()).as("%s", none).isEqualTo(FenceStatus.FAILED);
        assertThat(none.detail()).contains("no report of the node agent of n1")
                .contains(SelfNodeCluster.NAMESPACE + "/" + NodeAgentContract.leaseName("n1"));
    }
}
