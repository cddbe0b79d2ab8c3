package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code remedy node-agent}: the options that need no cluster. */
class NodeAgentCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(Map<String, String> env, String... args) {
        CliEnvironment environment = new CliEnvironment(env, new FakeTimeSource(),
                FenceAgentRegistry.of(List.of()), new PrintWriter(out), new PrintWriter(err));
        return RemedyCli.execute(args, environment);
    }

    @Test
    @DisplayName("--print-settings shows the settings file with its fingerprint and the safe time")
    void printSettings() throws Exception {
        Path file = Files.writeString(dir.resolve("settings.yaml"), "watchdogTimeout: 30s\nsafeTime: 200s\n");
        assertThat(run(Map.of(), "node-agent", "--settings", file.toString(), "--print-settings",
                "--cluster-size", "20")).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).contains("watchdogTimeout: 30s").contains("# fingerprint: ")
                .as("60 s detection + 30 s allowance + 9 batches of 10 s (3 peers, then 2 at a time) + 30 s watchdog"
                        + " + 15 s reboot = 225 s, longer than the configured 200 s").contains("# safe time for 20 nodes: 225s (computed "
                        + "minimum 225s)");
    }

    @Test
    @DisplayName("bad settings: exit 3, every problem with the file and the key")
    void badSettings() throws Exception {
        Path file = Files.writeString(dir.resolve("settings.yaml"), "peerPort: 0\nwatchdogFalback: none\n");
        assertThat(run(Map.of(), "node-agent", "--settings", file.toString(), "--print-settings"))
                .isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains(file + ":peerPort").contains("did you mean 'watchdogFallback'");
    }

    @Test
    @DisplayName("no node name: exit 3, saying to pass --node or set NODE_NAME")
    void noNode() throws Exception {
        Path file = Files.writeString(dir.resolve("settings.yaml"), "");
        assertThat(run(Map.of(), "node-agent", "--settings", file.toString())).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("--node NAME").contains("NODE_NAME");
    }

    @Test
    @DisplayName("TLS files missing: exit 3, naming the file, before anything is armed")
    void noTls() throws Exception {
        Path file = Files.writeString(dir.resolve("settings.yaml"), "watchdogDevice: " + dir.resolve("nowatchdog")
                + "\nwatchdogFallback: none\n");
        Path stat = Files.writeString(dir.resolve("stat"), "btime 1764000000\n");
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """);
        assertThat(run(Map.of(), "node-agent", "--node", "w1", "--settings", file.toString(), "--kubeconfig",
                kubeconfig.toString(), "--tls-dir", dir.resolve("tls").toString(), "--proc-stat", stat.toString()))
                .isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("cannot start").contains("tls.crt");
    }
}
