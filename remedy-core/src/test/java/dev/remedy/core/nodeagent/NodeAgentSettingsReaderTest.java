package dev.remedy.core.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.config.ConfigProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one settings format the node agents and the operator read. */
class NodeAgentSettingsReaderTest {

    private static final String SOURCE = "configmap remedy-system/remedy-node-agent settings.yaml";

    @Test
    @DisplayName("an empty document gives the defaults: safe time medik8s's 180 s, or the computed minimum when longer")
    void emptyIsDefaults() {
        NodeAgentSettings s = NodeAgentSettingsReader.parse("", SOURCE);
        assertThat(s).isEqualTo(NodeAgentSettings.ofDefaults());
        assertThat(s.safeTime(2)).as("one batch: 175 s computed, the configured 180 s wins")
                .isEqualTo(Duration.ofSeconds(180));
        assertThat(s.safeTime(4)).as("one batch of three peers: 175 s computed, the configured 180 s wins")
                .isEqualTo(Duration.ofSeconds(180));
        assertThat(s.safeTime(5)).as("a first batch of three, then one of one: the computed 185 s wins")
                .isEqualTo(Duration.ofSeconds(185));
        assertThat(s.failureDomainLabels()).containsExactly("topology.kubernetes.io/zone", "topology.remedy.dev/rack");
    }

    @Test
    @DisplayName("every key is read, and toYaml writes back exactly what was read")
    void roundTrip() {
        String yaml = """
                apiCheckInterval: 10s
                apiServerTimeout: 2s
                maxApiErrorThreshold: 2
                peerDialTimeout: 1s
                peerRequestTimeout: 3s
                peerQuorum: 2
                peerPort: 31000
                spreadPeersAcrossDomains: false
                failureDomainLabels:
                  - example.com/rack
                watchdogDevice: /dev/watchdog1
                watchdogTimeout: 30s
                watchdogFallback: none
                sysrqTrigger: /host/proc/sysrq-trigger
                watchdogMagicClose: false
                decisionAllowance: 10s
                rebootDuration: 20s
                safeTime: 5m
                """;
        NodeAgentSettings s = NodeAgentSettingsReader.parse(yaml, SOURCE);
        assertThat(s.timings().apiCheckInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.peerPort()).isEqualTo(31_000);
        assertThat(s.watchdogFallback()).isEqualTo(WatchdogFallback.NONE);
        assertThat(s.watchdogDevice()).isEqualTo(Path.of("/dev/watchdog1"));
        assertThat(s.safeTime()).isEqualTo(Duration.ofMinutes(5));
        assertThat(s.toYaml()).isEqualTo(yaml);
        assertThat(NodeAgentSettingsReader.parse(s.toYaml(), SOURCE)).isEqualTo(s);
        assertThat(s.fingerprint()).hasSize(16).isNotEqualTo(NodeAgentSettings.ofDefaults().fingerprint());
    }

    @Test
    @DisplayName("the defaults round-trip through toYaml, and the same settings give the same fingerprint")
    void defaultsRoundTrip() {
        NodeAgentSettings d = NodeAgentSettings.ofDefaults();
        assertThat(NodeAgentSettingsReader.parse(d.toYaml(), SOURCE)).isEqualTo(d);
        assertThat(NodeAgentSettingsReader.parse(d.toYaml(), SOURCE).fingerprint()).isEqualTo(d.fingerprint());
    }

    @Test
    @DisplayName("every problem is reported at once, each naming its key")
    void everyProblemNamed() {
        String yaml = """
                apiCheckInterval: 2h
                apiServerTimeout: 0s
                maxApiErrorThreshold: 0
                peerPort: 70000
                failureDomainLabels: [ "bad key!" ]
                watchdogDevice: dev/watchdog
                watchdogFallback: kexec
                watchdogMagicClose: yes please
                safeTime: 180
                peerQourum: 1
                """;
        assertThatThrownBy(() -> NodeAgentSettingsReader.parse(yaml, SOURCE))
                .isInstanceOf(NodeAgentSettingsException.class)
                .satisfies(e -> assertThat(((NodeAgentSettingsException) e).issues()).extracting(ConfigProblem::path)
                        .containsExactlyInAnyOrder("peerQourum", "apiCheckInterval", "apiServerTimeout",
                                "maxApiErrorThreshold", "peerPort", "failureDomainLabels[0]", "watchdogDevice",
                                "watchdogFallback", "watchdogMagicClose"))
                .hasMessageContaining("did you mean 'peerQuorum'")
                .hasMessageContaining("apiCheckInterval")
                .hasMessageContaining("software-reboot");
    }

    @Test
    @DisplayName("a file is read as YAML whatever its name, and a missing file is refused naming it")
    void file(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("settings");
        Files.writeString(file, "peerPort: 30200\n");
        assertThat(NodeAgentSettingsReader.read(file).peerPort()).isEqualTo(30_200);
        assertThatThrownBy(() -> NodeAgentSettingsReader.read(dir.resolve("absent.yaml")))
                .isInstanceOf(NodeAgentSettingsException.class).hasMessageContaining("absent.yaml")
                .hasMessageContaining("no such file");
    }

    @Test
    @DisplayName("failureDomainLabels: [] means no failure domains, and round-trips")
    void noDomains() {
        NodeAgentSettings s = NodeAgentSettingsReader.parse("failureDomainLabels: []\n", SOURCE);
        assertThat(s.failureDomainLabels()).isEmpty();
        assertThat(s.failureDomain(Map.of("topology.kubernetes.io/zone", "z1"))).isEmpty();
        assertThat(NodeAgentSettingsReader.parse(s.toYaml(), SOURCE)).isEqualTo(s);
    }

    @Test
    @DisplayName("a node's failure domains are the configured labels it carries, in the settings' order")
    void domains() {
        NodeAgentSettings s = NodeAgentSettings.ofDefaults();
        Map<String, String> labels = Map.of("topology.remedy.dev/rack", "r1", "topology.kubernetes.io/zone", "z1",
                "other", "x");
        assertThat(s.domains(labels)).containsExactly(Map.entry("topology.kubernetes.io/zone", "z1"),
                Map.entry("topology.remedy.dev/rack", "r1"));
        assertThat(s.failureDomain(labels)).contains("topology.kubernetes.io/zone=z1,topology.remedy.dev/rack=r1");
        assertThat(s.failureDomain(Map.of())).isEmpty();
    }

    @Test
    @DisplayName("the Lease names and durations of the contract")
    void contract() {
        assertThat(NodeAgentContract.leaseName("worker-1")).isEqualTo("remedy-node-agent-worker-1");
        assertThat(NodeAgentContract.leaseDuration(NodeAgentSettings.ofDefaults())).isEqualTo(Duration.ofSeconds(35));
        assertThat(WatchdogMode.fromCode("software-reboot")).isEqualTo(WatchdogMode.SOFTWARE_REBOOT);
        assertThat(List.of(WatchdogMode.values())).extracting(WatchdogMode::code)
                .containsExactly("armed", "software-reboot", "none");
    }
}
