package dev.remedy.fence.kube.operator;

import dev.remedy.fence.kube.testing.RbacCheck;
import static dev.remedy.fence.kube.operator.OperatorFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.engine.Taint;
import dev.remedy.fence.kube.metrics.RemedyMetrics;
import dev.remedy.fence.kube.remediation.RemediationCrds;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.fence.kube.store.NodeFenceResource;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.FakePowerTarget;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The operator end to end on the mock API server in CRUD mode: configuration from ConfigMaps and a Secret, a Node
 * that stays NotReady past its policy's duration, the shard Lease taken, the node fenced with the {@code fake} agent,
 * released with the out-of-service taint, powered on, and recovered once it is Ready again; the NodeFence, the
 * Events, the medik8s node Lease and the metrics say so; and every request the operator sent is one the RBAC of
 * {@code deploy/} allows.
 *
 * <p>Mock server gap: the {@code spec.nodeName} field selector matches nothing, so the release finds no pod to
 * delete here; {@code KubeClusterOperationsTest} covers pod deletion.
 */
@EnableKubernetesMockClient(crud = true)
class RemedyOperatorTest {

    private static final String POLICIES = """
            policies:
              - name: workers
                unhealthyConditions: [{type: Ready, status: "False", duration: 300s}]
                escalation: [{name: fence, fence: {}, timeout: 10m}]
                storm: {quietPeriod: 0s}
            """;
    private static final String FENCE = """
            templates:
              bmc: {agent: fake, parameters: {username: admin}, secrets: {password: {secret: {name: bmc, key: pw}}}}
            topologies:
              - name: default
                power_management: {timeout: 60s, levels: [[bmc]]}
            nodes:
              worker-1: {bmc: {plug: worker-1}}
            """;

    KubernetesClient client;
    KubernetesMockServer server;

    private RemedyOperator operator;

    @AfterEach
    void stop() {
        if (operator != null) {
            operator.close();
        }
        client.close(); // its watch connections closed before the mock server shuts down (slow under load)
    }

    @Test
    @DisplayName("a node NotReady past its policy's duration is fenced, released, powered on and recovered once; the"
            + " leader creates the node agents' mTLS Secret")
    void fencesReleasesAndRecovers() throws Exception {
        NodeFenceCrd.apply(client);
        RemediationCrds.apply(client); // deploy/crds holds them all: the leader watches NodeFenceRemediations
        OperatorFixtures.configure(client, POLICIES, FENCE);
        client.nodes().resource(node("worker-1", "False", Instant.now().minus(Duration.ofMinutes(10)))).create();
        // two healthy nodes: storm protection's default minHealthy (51 %) admits one fence among three
        client.nodes().resource(node("worker-2", "True", Instant.now())).create();
        client.nodes().resource(node("worker-3", "True", Instant.now())).create();
        FakePowerLab lab = new FakePowerLab();

        // the operator's own client, known to the server by its user agent: its requests are checked against RBAC
        KubernetesClient operatorClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(client
                .getConfiguration()).withUserAgent(RbacCheck.USER_AGENT).build()).build();
        operator = RemedyOperator.builder(operatorClient).identity("replica-1")
                .agents(FenceAgentRegistry.of(new FakeFenceAgentProvider(lab)))
                .flow(FlowSettings.custom().hold(Duration.ofMillis(200)).build())
                .lease(Duration.ofMillis(1500), Duration.ofMillis(1000), Duration.ofMillis(200))
                .periods(Duration.ofSeconds(1), Duration.ofMillis(100))
                .nodeAgentTls(true)
                .build();
        operator.start();

        await("the operator leads and is ready", () -> operator.leading() && operator.ready());
        await("the leader creates the node agents' mTLS Secret", () -> client.secrets().inNamespace("remedy")
                .withName(NodeAgentContract.TLS_SECRET).get() != null);
        await("the node is powered on again after an OFF", () -> lab.find("worker-1").map(FakePowerTarget::history)
                .filter(history -> history.contains(PowerState.OFF) && history.get(history.size() - 1)
                        == PowerState.ON).isPresent());
        assertThat(client.leases().inNamespace("medik8s-leases").withName("node-worker-1").get())
                .as("the medik8s node Lease, held while remedy remediates the node").isNotNull()
                .satisfies(lease -> assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("remedy-default"));
        Node fenced = client.nodes().withName("worker-1").get();
        assertThat(fenced.getSpec().getUnschedulable()).as("still cordoned until Ready").isTrue();
        assertThat(fenced.getSpec().getTaints()).extracting(t -> t.getKey())
                .doesNotContain(Taint.OUT_OF_SERVICE.key()).contains(Taint.FENCING.key());

        client.nodes().withName("worker-1").edit(n -> {
            n.getStatus().setConditions(node("worker-1", "True", Instant.now()).getStatus().getConditions());
            return n;
        });
        await("the flow finishes", () -> "final".equals(state("worker-1")));

        Node recovered = client.nodes().withName("worker-1").get();
        assertThat(recovered.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
        assertThat(recovered.getSpec().getTaints()).isNullOrEmpty();
        assertThat(lab.find("worker-1").orElseThrow().history()).containsSubsequence(PowerState.OFF, PowerState.ON);
        await("the Events are written", () -> reasons().containsAll(List.of("FenceDecided", "FenceConfirmed",
                "WorkloadsReleased", "FenceFinished")));
        await("the medik8s node Lease is given back", () -> client.leases().inNamespace("medik8s-leases")
                .withName("node-worker-1").get() == null);
        assertThat(client.leases().inNamespace("remedy").withName("remedy-default").get().getSpec()
                .getHolderIdentity()).isEqualTo("replica-1");
        assertThat(operator.meters().counter(RemedyMetrics.STARTED, "policy", "workers").count()).isEqualTo(1.0);
        assertThat(operator.meters().find(RemedyMetrics.TIME_TO_SAFE).timer()).isNotNull()
                .satisfies(timer -> assertThat(timer.count()).isEqualTo(1));
        operator.close();
        operatorClient.close();
        assertThat(RbacCheck.deniedRequests(server, client)).as("requests deploy/20-rbac.yaml does not allow")
                .isEmpty();
    }

    private String state(String node) {
        NodeFenceResource fence = client.resources(NodeFenceResource.class).withName(node).get();
        return fence == null ? null : fence.getSpec().getState();
    }

    private List<String> events() {
        return client.events().v1().events().inAnyNamespace().list().getItems().stream()
                .map(e -> e.getReason() + ": " + e.getNote()).toList();
    }

    private List<String> reasons() {
        return client.events().v1().events().inNamespace("default").list().getItems().stream()
                .map(Event::getReason).toList();
    }


    private void await(String what, BooleanSupplier condition) {
        OperatorFixtures.await(what, condition, this::events);
    }
}
