package dev.remedy.fence.kube.remediation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.Confirmation;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.storm.StormListener;
import dev.remedy.fence.kube.agent.SelfNodeCluster;
import dev.remedy.fence.kube.agent.SelfNodeFenceAgentProvider;
import dev.remedy.fence.kube.cluster.KubeClusterOperations;
import dev.remedy.fence.kube.remediation.internal.RemediationConditions;
import dev.remedy.fence.kube.store.KubeFenceStateStore;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Self-node remediation asked for the way NodeHealthCheck asks: a NodeFenceRemediation with agent {@code self-node},
 * read by the remediation controller, fenced by the engine on a fake clock over the mock API server. The controller
 * runs on its own thread; the test drives the engine's time and operations.
 */
@DisplayName("self-node remediation through a NodeFenceRemediation")
@EnableKubernetesMockClient(crud = true)
class SelfNodeRemediationControllerTest {

    private static final String NAMESPACE = "medik8s";
    private static final List<String> PEERS = List.of("n2", "n3", "n4", "n5", "n6");

    KubernetesClient client;

    private final FakeTimeSource time = new FakeTimeSource();
    private final Instant t0 = time.instant();
    private final Deque<Runnable> queue = new ConcurrentLinkedDeque<>();

    private void settle(FenceEngine engine) {
        engine.tick();
        for (Runnable task = queue.pollFirst(); task != null; task = queue.pollFirst()) {
            task.run();
            engine.tick();
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 400; i++) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("not within 20 s: " + what);
    }

    @Test
    @DisplayName("agent self-node, --plug {{.NodeName}}, OutOfServiceTaint: nothing released before the safe time, then"
            + " released on the assumed reset; once the node is back, Succeeded=True")
    void nodeHealthCheckAsksForSelfNodeRemediation() throws Exception {
        NodeFenceCrd.apply(client);
        RemediationCrds.apply(client);
        SelfNodeCluster cluster = new SelfNodeCluster(client);
        cluster.node("n1", "r1", t0.minusSeconds(15)).node("n2", "r1", t0).node("n3", "r2", t0).node("n4", "r2", t0)
                .node("n5", "r3", t0).node("n6", "r3", t0);
        cluster.armed("n1", t0.minusSeconds(20));
        PEERS.forEach(p -> cluster.armed(p, t0));

        FenceAgentRegistry agents = FenceAgentRegistry.of(SelfNodeCluster.provider(client));
        RemediationPlans plans = new RemediationPlans();
        KubeClusterOperations ops = KubeClusterOperations.builder(client).backupNamespace(NAMESPACE).time(time)
                .releaseTimeout(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).build();
        try (FenceEngine engine = FenceEngine.builder().store(new KubeFenceStateStore(client)).cluster(ops)
                .agents(agents).plans(plans.over(node -> Optional.empty())).releaseStrategies(plans::release)
                .settings(FlowSettings.custom().hold(Duration.ZERO).backoff(Duration.ofSeconds(1),
                        Duration.ofSeconds(10)).maxRestarts(0).build())
                .time(time).executor(queue::add).build()) {
            engine.start();
            try (RemediationController controller = RemediationController.builder(client, engine, agents, plans)
                    .cluster(ops).storm(RemediationWorld.permissive(), StormListener.NONE, Instant.EPOCH).time(time)
                    .periods(Duration.ofSeconds(1), Duration.ofMillis(100)).component("remedy-test").build()) {
                controller.start();
                NodeFenceRemediation cr = new NodeFenceRemediation();
                cr.getMetadata().setName("n1");
                cr.getMetadata().setNamespace(NAMESPACE);
                cr.getSpec().setAgent(SelfNodeFenceAgentProvider.TYPE);
                cr.getSpec().setSharedParameters(Map.of("--plug", "{{.NodeName}}"));
                cr.getSpec().setRemediationStrategy("OutOfServiceTaint");
                cr.getSpec().setTimeout("10m");
                cr.getSpec().setRetryCount(1);
                client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(cr).create();

                await("the controller decided to fence n1", () -> engine.record("n1").isPresent());
                Instant due = t0.plusSeconds(225);
                while (engine.record("n1").orElseThrow().stage() != Stage.AWAIT_READY) {
                    assertThat(time.instant()).as("released within a minute after the safe time")
                            .isBefore(due.plusSeconds(60));
                    time.advance(Duration.ofSeconds(1));
                    PEERS.forEach(p -> cluster.armed(p, time.instant()));
                    settle(engine);
                    NodeFence r = engine.record("n1").orElseThrow();
                    if (time.instant().isBefore(due)) {
                        assertThat(r.released()).as("at %s", time.instant()).isFalse();
                    }
                }
                assertThat(engine.record("n1").orElseThrow().confirmation()).hasValueSatisfying(c ->
                        assertThat(c.kind()).isEqualTo(Confirmation.Kind.ASSUMED_RESET_AFTER_SAFE_TIME));

                engine.observe("n1", new Observation.Readiness(true, Optional.of(time.instant())));
                settle(engine);
                assertThat(engine.record("n1").orElseThrow().stage()).isEqualTo(Stage.FINISHED);
                await("Succeeded=True", () -> {
                    NodeFenceRemediation done = client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE)
                            .withName("n1").get();
                    return done.getStatus() != null && done.getStatus().getConditions().stream().anyMatch(c ->
                            RemediationConditions.SUCCEEDED.equals(c.getType()) && "True".equals(c.getStatus()));
                });
            }
        }
    }
}
