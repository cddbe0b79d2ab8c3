package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.NodeAgentSettingsReader;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner on a host made of files: the watchdog device a regular file with its sysfs timeout, /proc/stat, the
 * mounted TLS Secret. Real threads: the test waits (bounded) for what the runner must do, and asserts no timing.
 */
@EnableKubernetesMockClient(crud = true)
class NodeAgentRunnerTest {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    KubernetesClient client;

    @TempDir
    Path dir;

    private NodeAgentRunner.Host host() throws Exception {
        Files.createDirectories(dir.resolve("sys/watchdog0"));
        Files.writeString(dir.resolve("sys/watchdog0/timeout"), "3\n");
        Files.writeString(dir.resolve("stat"), "btime 1764000000\n");
        TestPki.create("agents").issue(dir.resolve("tls"), "remedy-node-agent");
        return new NodeAgentRunner.Host(dir.resolve("tls"), dir.resolve("sys"), dir.resolve("stat"),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    private NodeAgentSettings settings(String extra) throws IOException {
        Files.writeString(dir.resolve("watchdog"), "");
        return NodeAgentSettingsReader.parse("apiCheckInterval: 1s\nwatchdogDevice: " + dir.resolve("watchdog")
                + "\n" + extra, "test");
    }

    private static void await(String what, java.util.function.BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited " + PATIENCE + " for " + what).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    @DisplayName("runs: feeds the device at a third of the sysfs timeout, renews the Lease, serves the peers; a clean "
            + "stop writes the magic close")
    void runsAndStopsCleanly() throws Exception {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("w1").endMetadata().build()).create();
        NodeAgentRunner runner = NodeAgentRunner.start(client, "w1", "remedy", settings(""), "v1beta1", host());
        try {
            assertThat(runner.agent().watchdog().timeout()).contains(Duration.ofSeconds(3));
            await("two feeds", () -> read("watchdog").length() >= 2);
            await("the Lease", () -> client.leases().inNamespace("remedy").withName("remedy-node-agent-w1")
                    .get() != null);
            assertThat(runner.agent().answer("w2", Instant.EPOCH)).as("w2 has no Node object: a signal")
                    .isEqualTo(dev.remedy.core.rules.PeerAnswer.UNHEALTHY);
        } finally {
            runner.close(true);
        }
        assertThat(read("watchdog")).matches("1+V");
    }

    @Test
    @DisplayName("a remediation names the node: the device is no longer fed, and even a clean stop leaves it armed")
    void unhealthyStaysArmed() throws Exception {
        NodeAgentRunner runner = NodeAgentRunner.start(client, "gone", "remedy", settings(""), "v1beta1", host());
        try {
            await("the verdict", () -> runner.agent().status().health() == NodeAgent.Health.UNHEALTHY);
        } finally {
            runner.close(true);
        }
        assertThat(read("watchdog")).doesNotContain("V");
    }

    @Test
    @DisplayName("TLS files missing: the runner refuses to start, and nothing was written to the device")
    void noTls() throws Exception {
        NodeAgentRunner.Host host = host();
        Files.delete(dir.resolve("tls/tls.key"));
        NodeAgentSettings settings = settings("");
        assertThatThrownBy(() -> NodeAgentRunner.start(client, "w1", "remedy", settings, "v1beta1", host))
                .isInstanceOf(IOException.class);
        assertThat(read("watchdog")).isEmpty();
    }

    private String read(String file) {
        try {
            return Files.readString(dir.resolve(file));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
