package com.example.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.topology.FenceConfigurationException;
import dev.remedy.core.topology.SecretRef;
import dev.remedy.core.topology.SecretResolver;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NodeFencingTest {

    @TempDir
    Path dir;

    @Test
    void serviceLoaderFindsTheIpmiAgentAndTheFakeOne() {
        FenceAgentRegistry agents = FenceAgentRegistry.load();

        assertThat(agents.isClean()).as(agents.report()).isTrue();
        assertThat(agents.types()).contains("ipmi", "fake");
    }

    @Test
    void anIpmiConfigurationIsCheckedWholeAtLoad() throws IOException {
        Path config = Files.writeString(dir.resolve("fence.yaml"), """
                templates:
                  bmc: {agent: ipmi, parameters: {username: admin, password: hunter2}}
                topologies:
                  - name: default
                    power_management: {timeout: 120s, levels: [[bmc]]}
                """);

        assertThatThrownBy(() -> NodeFencing.start(config, dir.resolve("state"), new SimulatedCluster(),
                FenceAgentRegistry.load(), node -> Map.of(), SecretResolver.system(), new FakeTimeSource()))
                .isInstanceOf(FenceConfigurationException.class)
                .hasMessageContaining("fence.yaml:templates.bmc")
                .hasMessageContaining("password")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void fencesANodeOnFakeTime() throws IOException {
        FakeTimeSource time = new FakeTimeSource();
        FakeFenceAgentProvider fake = new FakeFenceAgentProvider();
        FakePowerTarget machine = fake.lab().create("worker-1", time);
        SimulatedCluster cluster = new SimulatedCluster().node("worker-1", 3);
        Path config = Files.writeString(dir.resolve("fence.yaml"), """
                templates:
                  bmc: {agent: fake, parameters: {username: admin}, secrets: {password: {env: BMC_PASSWORD}}}
                topologies:
                  - name: default
                    power_management: {timeout: 120s, retries: 1, levels: [[bmc]]}
                nodes:
                  worker-1: {bmc: {plug: worker-1}}
                """);
        SecretResolver secrets = SecretResolver.of(Map.of(SecretRef.env("BMC_PASSWORD"), Secret.of("bmc-password")));

        try (FenceEngine engine = NodeFencing.start(config, dir.resolve("state"), cluster, FenceAgentRegistry.of(fake),
                node -> Map.of(), secrets, time)) {
            engine.decide("worker-1", "Ready=Unknown for 5m");
            for (int i = 0; i < 60 && engine.record("worker-1").orElseThrow().state() != FenceState.DONE; i++) {
                time.advance(Duration.ofSeconds(5));
                engine.tick();
                waitForIdle(engine);
            }
            assertThat(engine.record("worker-1").orElseThrow().state()).isEqualTo(FenceState.DONE);
        }
        assertThat(machine.history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(cluster.pods("worker-1")).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"org.apache.sshd.server.SshServer", "org.bouncycastle.jce.provider.BouncyCastleProvider",
            "net.i2p.crypto.eddsa.EdDSAEngine", "com.jcraft.jsch.JSch"})
    void theLightKitBringsNoSimulatorLibrary(String className) {
        assertThatThrownBy(() -> Class.forName(className)).isInstanceOf(ClassNotFoundException.class);
    }

    /** The engine runs operations on its own threads: wait, bounded, until the node has none in flight. */
    private static void waitForIdle(FenceEngine engine) throws IOException {
        for (int i = 0; i < 2_000 && engine.record("worker-1").orElseThrow().inFlight().isPresent(); i++) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }
}
