package dev.remedy.fence.kube.operator;

import dev.remedy.fence.kube.testing.RbacCheck;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.Confirmation;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.fence.kube.agent.SelfNodeCluster;
import dev.remedy.fence.kube.agent.SelfNodeFenceAgentProvider;
import dev.remedy.fence.kube.cluster.KubeClusterOperations;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Self-node remediation's healthy side end to end: a real engine on a fake clock, remedy's Kubernetes cluster
 * operations and the {@code self-node} agent on the mock API server, six nodes in three racks, n1 unhealthy with an
 * armed watchdog. Operations queue and run when the test lets them, so the test sees every step.
 */
@DisplayName("self-node remediation in the engine")
@EnableKubernetesMockClient(crud = true)
class SelfNodeRemediationTest {

    private static final List<String> PEERS = List.of("n2", "n3", "n4", "n5", "n6");
    private static final String OUT_OF_SERVICE = "node.kubernetes.io/out-of-service";

    KubernetesClient client;
    KubernetesMockServer server;

    private final FakeTimeSource time = new FakeTimeSource();
    private final Instant t0 = time.instant();
    private final Deque<Runnable> queue = new ArrayDeque<>();
    private final List<FenceEvent> events = new ArrayList<>();

    private SelfNodeCluster cluster(boolean rackCutOff) {
        SelfNodeCluster cluster = new SelfNodeCluster(client);
        cluster.node("n1", "r1", t0.minusSeconds(15)).node("n2", "r1", t0).node("n3", "r2", t0).node("n4", "r2", t0)
                .node("n5", "r3", t0).node("n6", "r3", t0);
        cluster.armed("n1", t0.minusSeconds(20));
        PEERS.forEach(p -> cluster.armed(p, rackCutOff && p.equals("n2") ? t0.minusSeconds(60) : t0));
        return cluster;
    }

    private FenceEngine engine(KubernetesClient operator, List<List<String>> levels) {
        SelfNodeFenceAgentProvider selfNode = new SelfNodeFenceAgentProvider();
        ResolvedMethod method = new ResolvedMethod("self-node", SelfNodeFenceAgentProvider.TYPE,
                selfNode.configure().set("node", "n1").build(), FencingKind.SELF);
        List<List<ResolvedMethod>> power = levels.stream().map(level -> level.stream().map(m -> method).toList())
                .toList();
        NodePlan plan = new NodePlan("n1", "self-node", Map.of(
                FenceStep.ISOLATION, StepPlan.none(Duration.ofMinutes(1)),
                FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofMinutes(10), 0, power),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofMinutes(1))));
        KubeClusterOperations ops = KubeClusterOperations.builder(operator).time(time)
                .releaseTimeout(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).build();
        FenceEngine engine = FenceEngine.builder().store(new InMemoryStateStore()).cluster(ops)
                .agents(FenceAgentRegistry.of(SelfNodeCluster.provider(operator)))
                .plans(node -> Optional.of(plan))
                .settings(FlowSettings.custom().hold(Duration.ZERO)
                        .backoff(Duration.ofSeconds(1), Duration.ofSeconds(10)).maxRestarts(0).build())
                .time(time).executor(queue::add).listener(events::add).build();
        engine.start();
        return engine;
    }

    /** Ticks the engine and runs what it queued until nothing is queued. */
    private void settle(FenceEngine engine) {
        engine.tick();
        while (!queue.isEmpty()) {
            queue.removeFirst().run();
            engine.tick();
        }
    }

    private boolean tainted(String node) {
        Node n = client.nodes().withName(node).get();
        return n.getSpec().getTaints() != null && n.getSpec().getTaints().stream()
                .anyMatch(t -> OUT_OF_SERVICE.equals(t.getKey()));
    }

    @Test
    @DisplayName("armed: cordoned and marked at once, not released a moment before the safe time; then released with"
            + " the out-of-service taint on the confirmation ASSUMED_RESET_AFTER_SAFE_TIME, the taint lifted, the"
            + " mark removed, and the flow waits for Ready; every request allowed by deploy/20-rbac.yaml")
    void releasedAfterTheSafeTimeNotBefore() throws Exception {
        SelfNodeCluster cluster = cluster(false);
        Instant due = t0.plusSeconds(225);
        try (KubernetesClient operator = new KubernetesClientBuilder().withConfig(new ConfigBuilder(client
                .getConfiguration()).withUserAgent(RbacCheck.USER_AGENT).build()).build();
             FenceEngine engine = engine(operator, List.of(List.of("self-node")))) {
            engine.decide("n1", "NotReady for 5m");
            settle(engine);

            assertThat(client.nodes().withName("n1").get().getSpec().getUnschedulable()).isTrue();
            assertThat(cluster.mark("n1")).contains(t0.toString());
            assertThat(engine.record("n1").orElseThrow().stage()).isEqualTo(Stage.CONFIRM_OFF);

            while (time.instant().isBefore(due.minusSeconds(1))) {
                time.advance(Duration.ofSeconds(1));
                PEERS.forEach(p -> cluster.armed(p, time.instant()));
                settle(engine);
                NodeFence r = engine.record("n1").orElseThrow();
                assertThat(r.confirmation()).as("at %s", time.instant()).isEmpty();
                assertThat(r.released()).isFalse();
                assertThat(tainted("n1")).isFalse();
            }
            while (engine.record("n1").orElseThrow().stage() == Stage.CONFIRM_OFF) {
                time.advance(Duration.ofSeconds(1));
                PEERS.forEach(p -> cluster.armed(p, time.instant()));
                settle(engine);
            }

            NodeFence r = engine.record("n1").orElseThrow();
            assertThat(r.confirmation()).hasValueSatisfying(c -> {
                assertThat(c.kind()).isEqualTo(Confirmation.Kind.ASSUMED_RESET_AFTER_SAFE_TIME);
                assertThat(c.at()).isAfterOrEqualTo(due);
            });
            assertThat(r.released()).isTrue();
            assertThat(r.stage()).isEqualTo(Stage.AWAIT_READY);
            assertThat(events).filteredOn(FenceEvent.Transitioned.class::isInstance)
                    .map(e -> ((FenceEvent.Transitioned) e).reason())
                    .anySatisfy(reason -> assertThat(reason).contains("workloads released on confirmation"
                            + " ASSUMED_RESET_AFTER_SAFE_TIME by self-node"));
            assertThat(events).filteredOn(FenceEvent.OperationFinished.class::isInstance)
                    .map(e -> ((FenceEvent.OperationFinished) e).description())
                    .contains("cluster release_workloads", "cluster lift_out_of_service");
            assertThat(tainted("n1")).as("lifted before the flow waits for Ready").isFalse();
            assertThat(cluster.mark("n1")).as("removed by ON").isEmpty();
        }
        assertThat(RbacCheck.deniedRequests(server, client)).as("requests deploy/20-rbac.yaml does not allow")
                .isEmpty();
    }

    @Test
    @DisplayName("rack cut off (n1's rack-mate silent too): the self-node level refuses, nothing is released, and the"
            + " flow fails with the reason for an admin")
    void rackCutOffHoldsForAnAdmin() {
        cluster(true);
        try (FenceEngine engine = engine(client, List.of(List.of("self-node")))) {
            engine.decide("n1", "NotReady for 5m");
            settle(engine);

            NodeFence r = engine.record("n1").orElseThrow();
            assertThat(r.stage()).isEqualTo(Stage.FAILED);
            assertThat(r.released()).isFalse();
            assertThat(r.confirmation()).isEmpty();
            assertThat(tainted("n1")).isFalse();
            assertThat(events).filteredOn(FenceEvent.OperationFinished.class::isInstance)
                    .map(e -> ((FenceEvent.OperationFinished) e).detail())
                    .anySatisfy(detail -> assertThat(detail).contains("cut off as a whole"));
        }
    }
}
