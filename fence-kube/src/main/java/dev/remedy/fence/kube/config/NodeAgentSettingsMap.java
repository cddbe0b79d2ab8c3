package dev.remedy.fence.kube.config;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.NodeAgentSettingsException;
import dev.remedy.core.nodeagent.NodeAgentSettingsReader;
import dev.remedy.spi.config.ConfigProblem;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;

/**
 * Reads the self-node-remediation settings from the ConfigMap {@link NodeAgentContract#CONFIG_MAP}, key
 * {@link NodeAgentContract#SETTINGS_KEY}: the node agents at start and the operator before it computes a safe time
 * read them here, the same way. No ConfigMap means {@link NodeAgentSettings#ofDefaults()} on both sides; a ConfigMap
 * without the key is refused (a misnamed key would otherwise run the defaults unnoticed).
 */
public final class NodeAgentSettingsMap {

    private NodeAgentSettingsMap() {
    }

    /**
     * The settings in {@code namespace}. Blocks for one API call.
     *
     * @throws NodeAgentSettingsException if the ConfigMap lacks the key or its value is refused; each problem names
     *                                    the ConfigMap and the key
     * @throws io.fabric8.kubernetes.client.KubernetesClientException if the API server cannot be read
     */
    public static NodeAgentSettings read(KubernetesClient client, String namespace) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(namespace, "namespace");
        ConfigMap map = client.configMaps().inNamespace(namespace).withName(NodeAgentContract.CONFIG_MAP).get();
        String source = "configmap " + namespace + "/" + NodeAgentContract.CONFIG_MAP + " "
                + NodeAgentContract.SETTINGS_KEY;
        if (map == null) {
            return NodeAgentSettings.ofDefaults();
        }
        String text = map.getData() == null ? null : map.getData().get(NodeAgentContract.SETTINGS_KEY);
        if (text == null) {
            throw new NodeAgentSettingsException(List.of(ConfigProblem.in(source, "", "the ConfigMap has no key "
                    + NodeAgentContract.SETTINGS_KEY + "; put the settings under that key (or delete the ConfigMap "
                    + "to run with the defaults)")), null);
        }
        return NodeAgentSettingsReader.parse(text, source);
    }
}
