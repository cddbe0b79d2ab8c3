package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.NodeAgentSettingsReader;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The files of deploy/node-agent/ agree with the code's contract. */
class DeployFilesTest {

    private static final Path DIR = Path.of("..", "deploy", "node-agent");

    @Test
    @DisplayName("the settings ConfigMap is named and keyed as the contract says, and holds exactly the defaults")
    void settingsAreTheDefaults() throws Exception {
        ConfigMap map;
        try (InputStream in = Files.newInputStream(DIR.resolve("30-settings.yaml"))) {
            map = Serialization.unmarshal(in, ConfigMap.class);
        }
        assertThat(map.getMetadata().getName()).isEqualTo(NodeAgentContract.CONFIG_MAP);
        assertThat(map.getMetadata().getNamespace()).isEqualTo(NodeAgentContract.DEFAULT_NAMESPACE);
        NodeAgentSettings settings = NodeAgentSettingsReader.parse(map.getData().get(NodeAgentContract.SETTINGS_KEY),
                "30-settings.yaml");
        assertThat(settings).isEqualTo(NodeAgentSettings.ofDefaults());
    }

    @Test
    @DisplayName("the DaemonSet mounts the contract's TLS Secret where it tells the agent to read it, and passes the "
            + "node's name")
    void daemonSet() throws Exception {
        DaemonSet ds;
        try (InputStream in = Files.newInputStream(DIR.resolve("50-daemonset.yaml"))) {
            ds = Serialization.unmarshal(in, DaemonSet.class);
        }
        var pod = ds.getSpec().getTemplate().getSpec();
        var container = pod.getContainers().get(0);
        assertThat(pod.getVolumes()).anySatisfy(v -> assertThat(v.getSecret().getSecretName())
                .isEqualTo(NodeAgentContract.TLS_SECRET));
        String tlsMount = container.getVolumeMounts().stream().filter(m -> m.getName().equals("tls")).findFirst()
                .orElseThrow().getMountPath();
        assertThat(container.getArgs()).containsExactly("node-agent", "--tls-dir=" + tlsMount);
        assertThat(container.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("NODE_NAME");
            assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("spec.nodeName");
        });
        assertThat(pod.getHostNetwork()).isTrue();
        assertThat(container.getSecurityContext().getPrivileged()).isTrue();
    }
}
