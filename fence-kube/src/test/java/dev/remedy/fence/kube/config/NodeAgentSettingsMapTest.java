package dev.remedy.fence.kube.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.NodeAgentSettingsException;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class NodeAgentSettingsMapTest {

    private static final String NS = "remedy-system";

    KubernetesClient client;

    @Test
    @DisplayName("no ConfigMap: both sides run with the defaults")
    void noMapIsDefaults() {
        assertThat(NodeAgentSettingsMap.read(client, NS)).isEqualTo(NodeAgentSettings.ofDefaults());
    }

    @Test
    @DisplayName("the settings.yaml key of remedy-node-agent is read")
    void readsKey() {
        client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-node-agent").endMetadata().addToData("settings.yaml", "peerPort: 30200\n").build())
                .create();
        assertThat(NodeAgentSettingsMap.read(client, NS).peerPort()).isEqualTo(30_200);
    }

    @Test
    @DisplayName("a ConfigMap without the key, or with a bad value, is refused naming the ConfigMap and the key")
    void refused() {
        client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-node-agent").endMetadata().addToData("settings.yml", "peerPort: 1\n").build())
                .create();
        assertThatThrownBy(() -> NodeAgentSettingsMap.read(client, NS)).isInstanceOf(NodeAgentSettingsException.class)
                .hasMessageContaining("configmap remedy-system/remedy-node-agent settings.yaml")
                .hasMessageContaining("has no key settings.yaml");
        client.configMaps().inNamespace(NS).withName("remedy-node-agent").edit(m -> new ConfigMapBuilder(m)
                .withData(java.util.Map.of("settings.yaml", "peerPort: none\n")).build());
        assertThatThrownBy(() -> NodeAgentSettingsMap.read(client, NS)).isInstanceOf(NodeAgentSettingsException.class)
                .hasMessageContaining("peerPort");
    }
}
