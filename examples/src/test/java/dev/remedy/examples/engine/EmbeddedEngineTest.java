package dev.remedy.examples.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.Observation;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedEngineTest {

    @TempDir
    Path dir;

    @Test
    @DisplayName("the README's engine example fences a node from a YAML configuration and survives a restart")
    void fencesFromYaml() throws IOException {
        String node = "worker-" + UUID.randomUUID();
        FakeTimeSource time = new FakeTimeSource();
        FakeFenceAgentProvider fake = new FakeFenceAgentProvider();
        FenceAgentRegistry agents = FenceAgentRegistry.of(fake);
        FakePowerTarget machine = fake.lab().create(node, time);
        SimulatedCluster cluster = new SimulatedCluster().node(node, 4);
        Path password = Files.writeString(dir.resolve("bmc.pw"), "example-bmc-password\n");
        Path config = Files.writeString(dir.resolve("fence.yaml"), """
                templates:
                  bmc:
                    agent: fake
                    parameters: {username: admin}
                    secrets: {password: {file: %s}}
                topologies:
                  - name: default
                    power_management: {timeout: 120s, retries: 1, levels: [[bmc]]}
                nodes:
                  %s:
                    bmc: {plug: %s}
                """.formatted(password.toAbsolutePath(), node, node));
        FlowSettings settings = FlowSettings.custom().hold(Duration.ofSeconds(10)).build();

        FenceEngine engine = EmbeddedEngine.start(config, dir.resolve("state"), cluster, agents, n -> Map.of(),
                settings, time);
        engine.decide(node, "Ready=Unknown for 5m");
        for (int i = 0; i < 20 && engine.record(node).orElseThrow().state() != FenceState.DONE; i++) {
            time.advance(Duration.ofSeconds(5));
            engine.tick();
            waitForIdle(engine, node);
        }
        engine.close();

        FenceEngine restarted = EmbeddedEngine.start(config, dir.resolve("state"), cluster, agents, n -> Map.of(),
                settings, time);
        assertThat(restarted.record(node)).hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(FenceState.DONE));
        restarted.observe(node, new Observation.Readiness(true, Optional.of(time.instant())));
        waitForIdle(restarted, node);
        assertThat(restarted.record(node).orElseThrow().state()).isEqualTo(FenceState.FINAL);
        assertThat(machine.history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(cluster.pods(node)).isZero();
        restarted.close();
    }

    /** The engine runs operations on its own threads: wait (bounded) until the node has none in flight. */
    private static void waitForIdle(FenceEngine engine, String node) {
        for (int i = 0; i < 2_000 && engine.record(node).orElseThrow().inFlight().isPresent(); i++) {
            Thread.onSpinWait();
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
