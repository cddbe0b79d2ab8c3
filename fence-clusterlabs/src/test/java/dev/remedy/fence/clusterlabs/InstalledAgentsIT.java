package dev.remedy.fence.clusterlabs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every agent of the installed fence-agents package is described from its own metadata. */
class InstalledAgentsIT {

    @Test
    @DisplayName("every installed fence_* agent but fence_ack_manual (a shell script without metadata) is described,"
            + " its secrets marked")
    void everyInstalledAgent() throws IOException {
        PeerPrograms.require("fence_ipmilan", "fence-agents");
        Path directory = Path.of(ClusterLabsFenceAgentProvider.DEFAULT_DIRECTORY);
        ClusterLabsFenceAgentProvider provider = new ClusterLabsFenceAgentProvider(directory);
        List<String> agents;
        try (Stream<Path> files = Files.list(directory)) {
            agents = files.map(p -> p.getFileName().toString()).filter(n -> n.matches("fence_[a-z0-9_]+")).sorted()
                    .toList();
        }
        Map<String, String> refused = new TreeMap<>();
        for (String agent : agents) {
            try {
                ClusterLabsFenceAgentProvider described = provider.specialise(Map.of("agent", agent));
                assertThat(described.parameters()).as(agent).extracting(ParameterDescriptor::name)
                        .doesNotHaveDuplicates().doesNotContain("action", "verbose", "password_script", "delay");
                assertThat(described.parameters()).as(agent).filteredOn(p -> p.name().contains("passw"))
                        .allMatch(ParameterDescriptor::secret);
            } catch (InvalidConfigurationException e) {
                refused.put(agent, e.getMessage());
            }
        }
        assertThat(agents).hasSizeGreaterThan(50);
        assertThat(refused).as("agents refused").containsOnlyKeys("fence_ack_manual");
        assertThat(provider.specialise(Map.of("agent", "fence_scsi")).fencingKind()).isEqualTo(FencingKind.FABRIC);
        assertThat(provider.specialise(Map.of("agent", "fence_scsi")).supportedActions())
                .doesNotContain(FenceAction.REBOOT);
        assertThat(provider.specialise(Map.of("agent", "fence_apc_snmp")).parameters())
                .filteredOn(ParameterDescriptor::secret).extracting(ParameterDescriptor::name)
                .containsExactlyInAnyOrder("community", "password", "snmp_priv_passwd");
    }
}
