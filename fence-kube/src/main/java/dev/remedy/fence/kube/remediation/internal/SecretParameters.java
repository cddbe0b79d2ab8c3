package dev.remedy.fence.kube.remediation.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Fence parameters kept in Secrets, as FenceAgentsRemediation reads them: the remediation's {@code sharedSecretName}
 * (or, when none is named, {@value #DEFAULT_SHARED_SECRET} if it exists) and the node's entry of
 * {@code nodeSecretNames}, in the remediation's namespace; each key is a parameter ({@code --password}).
 */
public final class SecretParameters {

    /** The Secret of shared parameters FenceAgentsRemediation reads when none is named. */
    public static final String DEFAULT_SHARED_SECRET = "fence-agents-credentials-shared";

    private final KubernetesClient client;

    /** Secrets read with {@code client}. */
    public SecretParameters(KubernetesClient client) {
        this.client = client;
    }

    /**
     * The parameters of {@code node} from the Secrets {@code shared} and {@code perNode} name (the node's win).
     *
     * @throws IllegalStateException naming a Secret that is named but does not exist
     */
    public Map<String, String> of(HasMetadata remediation, String shared, Map<String, String> perNode, String node) {
        String namespace = remediation.getMetadata().getNamespace();
        Map<String, String> parameters = new LinkedHashMap<>(read(namespace, shared != null ? shared
                : DEFAULT_SHARED_SECRET, shared != null));
        if (perNode != null && perNode.get(node) != null) {
            parameters.putAll(read(namespace, perNode.get(node), true));
        }
        return parameters;
    }

    private Map<String, String> read(String namespace, String name, boolean required) {
        Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
        if (secret == null) {
            if (required) {
                throw new IllegalStateException("Secret " + namespace + "/" + name + " named by the remediation does "
                        + "not exist; create it or fix the name");
            }
            return Map.of();
        }
        Map<String, String> values = new LinkedHashMap<>();
        Optional.ofNullable(secret.getData()).orElse(Map.of()).forEach((k, v) -> values.put(k,
                new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
        Optional.ofNullable(secret.getStringData()).orElse(Map.of()).forEach(values::put);
        return values;
    }
}
