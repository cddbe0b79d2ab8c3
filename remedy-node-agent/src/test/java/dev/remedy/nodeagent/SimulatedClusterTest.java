package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.rules.PeerVerdict;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.fence.kube.store.NodeFenceResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The poison-pill design on running agents: six nodes in three racks, each agent with its own client of the mock API
 * server behind a switch, its own peer server on loopback HTTPS with mutual TLS, and a watchdog on the fake clock.
 * A node is reset when its watchdog fires.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class SimulatedClusterTest {

    KubernetesClient client;

    @TempDir
    Path tls;

    private SimulatedCluster cluster;

    @BeforeEach
    void start() throws Exception {
        NodeFenceCrd.apply(client);
        Map<String, String> racks = new LinkedHashMap<>();
        for (int i = 1; i <= 6; i++) {
            racks.put("n" + i, "r" + ((i + 1) / 2));
        }
        cluster = new SimulatedCluster(client, racks, tls);
    }

    @AfterEach
    void stop() throws Exception {
        cluster.close();
    }

    private NodeAgent.Status status(String node) {
        return cluster.member(node).agent().status();
    }

    @Test
    @DisplayName("a healthy cluster: nobody resets, every agent renews its Lease, annotated armed")
    void healthyCluster() {
        cluster.rounds(8);
        assertThat(cluster.reset()).isEmpty();
        Lease lease = client.leases().inNamespace(SimulatedCluster.NAMESPACE).withName("remedy-node-agent-n3").get();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("n3");
        assertThat(lease.getSpec().getRenewTime().toInstant()).isEqualTo(cluster.time.instant());
        assertThat(lease.getMetadata().getAnnotations()).containsEntry("remedy.dev/watchdog", "armed")
                .containsEntry("remedy.dev/watchdog-timeout", "1m");
    }

    @Test
    @DisplayName("partitioned from the API server only (requests hang): the peers say healthy, no reset")
    void apiPartitionOnly() {
        cluster.round();
        cluster.api(ApiLink.Mode.HANG, "n1");
        cluster.rounds(4);
        assertThat(status("n1").health()).isEqualTo(NodeAgent.Health.HEALTHY);
        assertThat(status("n1").verdict().orElseThrow().reason()).isEqualTo(PeerVerdict.Reason.PEER_SAYS_HEALTHY);
        assertThat(cluster.reset()).isEmpty();
    }

    @Test
    @DisplayName("fewer consecutive failed reads than the threshold (3): no peer is asked yet; the third asks them")
    void threshold() {
        cluster.round();
        cluster.api(ApiLink.Mode.REFUSE, "n1");
        cluster.rounds(2);
        assertThat(status("n1").health()).isEqualTo(NodeAgent.Health.API_ERRORS);
        assertThat(status("n1").verdict()).isEmpty();
        cluster.round();
        assertThat(status("n1").verdict()).isPresent();
    }

    @Test
    @DisplayName("a first batch of 3 peers, then batches of max(1, min(6/10, 5)) = 1; batches without an answer ask the"
            + " next, up to the last (the node's own rack, asked last), which says healthy")
    void errorsAskNextBatch() {
        cluster.round();
        cluster.api(ApiLink.Mode.REFUSE, "n1");
        cluster.partition("n1", "n2");
        cluster.api(ApiLink.Mode.OPEN, "n2");
        cluster.rounds(3);
        PeerVerdict.Result verdict = status("n1").verdict().orElseThrow();
        assertThat(verdict.reason()).isEqualTo(PeerVerdict.Reason.PEER_SAYS_HEALTHY);
        assertThat(verdict.tally().noAnswer()).as("a batch of three silent peers and one of one, from the other racks").isEqualTo(4);
        assertThat(verdict.tally().healthy()).as("then n2, n1's rack-mate, which reads the API server").isEqualTo(1);
        assertThat(cluster.reset()).isEmpty();
    }

    @Test
    @DisplayName("cut from the API server while the cluster asks to remediate it: the peers say unhealthy, reset")
    void peersSayUnhealthy() {
        cluster.round();
        cluster.api(ApiLink.Mode.REFUSE, "n2");
        NodeFenceResource fence = new NodeFenceResource();
        fence.setMetadata(new ObjectMetaBuilder().withName("n2").build());
        fence.getSpec().setNode("n2");
        fence.getSpec().setStep("isolation");
        fence.getSpec().setState("running");
        client.resources(NodeFenceResource.class).resource(fence).create();
        cluster.rounds(3);
        assertThat(status("n2").health()).isEqualTo(NodeAgent.Health.UNHEALTHY);
        assertThat(status("n2").verdict().orElseThrow().reason()).isEqualTo(PeerVerdict.Reason.PEERS_SAY_UNHEALTHY);
        cluster.rounds(4);
        assertThat(cluster.reset()).containsExactly("n2");
    }

    @Test
    @DisplayName("a remediation names a node that reads the API server: it resets without asking anyone")
    void remediationSeenDirectly() {
        cluster.round();
        NodeFenceResource fence = new NodeFenceResource();
        fence.setMetadata(new ObjectMetaBuilder().withName("n5").build());
        fence.getSpec().setNode("n5");
        fence.getSpec().setStep("power_management");
        fence.getSpec().setState("running");
        client.resources(NodeFenceResource.class).resource(fence).create();
        cluster.round();
        assertThat(status("n5").health()).isEqualTo(NodeAgent.Health.UNHEALTHY);
        assertThat(status("n5").verdict()).isEmpty();
        cluster.rounds(4);
        assertThat(cluster.reset()).containsExactly("n5");
    }

    @Test
    @DisplayName("isolated completely (API server and peers): no answer, reset")
    void isolated() {
        cluster.round();
        cluster.api(ApiLink.Mode.REFUSE, "n3");
        cluster.partition("n3");
        cluster.rounds(3);
        assertThat(status("n3").health()).isEqualTo(NodeAgent.Health.UNHEALTHY);
        assertThat(status("n3").verdict().orElseThrow().reason()).isEqualTo(PeerVerdict.Reason.ISOLATED);
        cluster.rounds(4);
        assertThat(cluster.reset()).containsExactly("n3");
    }

    @Test
    @DisplayName("the API server is out for everyone: the peers answer API errors, the control plane is suspected, "
            + "nobody resets")
    void apiServerDown() {
        cluster.round();
        cluster.apiForEveryone(ApiLink.Mode.REFUSE);
        cluster.rounds(8);
        assertThat(status("n4").verdict().orElseThrow().reason())
                .isEqualTo(PeerVerdict.Reason.CONTROL_PLANE_SUSPECTED);
        assertThat(cluster.reset()).isEmpty();
    }

    @Test
    @DisplayName("one rack cut off (API server and the other racks): nobody in it resets, the others stay healthy")
    void rackCutOff() {
        cluster.round();
        String[] rack = cluster.rack("r2");
        cluster.api(ApiLink.Mode.REFUSE, rack);
        cluster.partition(rack);
        cluster.rounds(8);
        for (String n : rack) {
            assertThat(status(n).health()).as(n).isEqualTo(NodeAgent.Health.HEALTHY);
            assertThat(status(n).verdict().orElseThrow().reason()).as(n)
                    .isEqualTo(PeerVerdict.Reason.DOMAIN_CUT_OFF);
        }
        assertThat(status("n1").reason()).contains("shows no remediation");
        assertThat(cluster.reset()).isEmpty();
    }

    @Test
    @DisplayName("an agent whose check loop hangs stops feeding its watchdog: the watchdog fires")
    void hungAgent() {
        cluster.round();
        cluster.hang("n6");
        cluster.rounds(3);
        assertThat(cluster.reset()).isEmpty();
        cluster.rounds(6);
        assertThat(cluster.reset()).containsExactly("n6");
    }

    @Test
    @DisplayName("a killed agent feeds nothing: its watchdog fires; the others keep going without its answers")
    void killedAgent() {
        cluster.round();
        cluster.kill("n4");
        cluster.rounds(5);
        assertThat(cluster.reset()).containsExactly("n4");
        assertThat(status("n3").health()).isEqualTo(NodeAgent.Health.HEALTHY);
    }
}
