package dev.remedy.fence.kube.remediation;

import static dev.remedy.fence.kube.remediation.RemediationWorld.NAMESPACE;
import static dev.remedy.fence.kube.remediation.RemediationWorld.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.storm.Threshold;
import dev.remedy.fence.kube.remediation.internal.RemediationConditions;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Storm protection still applies to remediations a health checker creates. */
@DisplayName("NodeFenceRemediations and storm protection")
@EnableKubernetesMockClient(crud = true)
class RemediationStormTest {

    KubernetesClient client;
    private RemediationWorld world;

    @AfterEach
    void tearDown() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    @DisplayName("a remediation storm protection holds back stays Processing=True with the rule in its message and one"
            + " Event naming the rule however often it is evaluated, and starts once admitted")
    void heldThenAdmitted() throws Exception {
        StormSettings oneAtATime = StormSettings.custom().minHealthy(Threshold.percent(0)).maxConcurrent(1)
                .quietPeriod(Duration.ZERO).noFenceRateLimit().raceDelay(Duration.ZERO, Duration.ZERO)
                .nodeCooldown(Duration.ZERO).build();
        world = new RemediationWorld(client, Duration.ofMillis(100), oneAtATime);
        SimulatedBmc first = world.node("worker-1");
        SimulatedBmc second = world.node("worker-2");
        world.node("worker-3");
        create("worker-1", first);
        await("worker-1 decided", () -> world.record("worker-1").isPresent());

        create("worker-2", second);

        await("worker-2 held", () -> world.condition("worker-2", RemediationConditions.PROCESSING)
                .filter(c -> c.getMessage().contains("maxConcurrent")).isPresent());
        assertThat(world.has("worker-2", RemediationConditions.PROCESSING, "True", "RemediationStarted")).isTrue();
        await("worker-1 fenced and released", () -> world.has("worker-1", RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully") && RemediationWorld.offThenOn(first));
        assertThat(world.record("worker-2")).as("held while worker-1's flow runs").isEmpty();
        assertThat(world.condition("worker-2", RemediationConditions.PROCESSING).orElseThrow().getMessage())
                .contains("maxConcurrent");

        world.ready("worker-1");

        await("worker-1's flow over", () -> world.record("worker-1").filter(r -> r.state() == FenceState.FINAL)
                .isPresent());
        await("worker-2 admitted and fenced", () -> world.has("worker-2", RemediationConditions.SUCCEEDED, "True",
                "RemediationFinishedSuccessfully"));
        List<Event> held = world.events("worker-2").stream()
                .filter(e -> e.getReason().equals("RemediationCannotStart")).toList();
        assertThat(held).hasSize(1);
        assertThat(held.get(0).getMessage()).startsWith("[remediation] ").contains("maxConcurrent");
        assertThat(world.events("worker-2")).extracting(Event::getReason).contains("RemediationStarted");
    }

    @Test
    @DisplayName("the fence-race delay storm protection chooses for an admitted remediation lengthens its flow's hold")
    void raceDelayLengthensTheHold() throws Exception {
        StormSettings delayed = StormSettings.custom().minHealthy(Threshold.percent(0)).quietPeriod(Duration.ZERO)
                .noFenceRateLimit().raceDelay(Duration.ofMinutes(10), Duration.ZERO).nodeCooldown(Duration.ZERO)
                .build();
        world = new RemediationWorld(client, Duration.ofMillis(100), delayed);
        SimulatedBmc bmc = world.node("worker-1");
        world.node("worker-2");

        create("worker-1", bmc);

        await("worker-1 decided", () -> world.record("worker-1").isPresent());
        NodeFence record = world.record("worker-1").orElseThrow();
        assertThat(record.stage()).isEqualTo(Stage.HOLD);
        assertThat(record.waitUntil()).hasValueSatisfying(until -> assertThat(until)
                .isAfterOrEqualTo(record.decidedAt().plus(Duration.ofMinutes(10))));
        assertThat(bmc.powerTarget().history()).doesNotContain(PowerState.OFF);
    }

    private void create(String node, SimulatedBmc bmc) {
        NodeFenceRemediation cr = new NodeFenceRemediation();
        cr.getMetadata().setName(node);
        cr.getMetadata().setNamespace(NAMESPACE);
        cr.getSpec().setAgent("fence_ipmilan");
        cr.getSpec().setSharedParameters(RemediationWorld.farParameters(bmc));
        cr.getSpec().setRemediationStrategy("OutOfServiceTaint");
        client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(cr).create();
    }
}
