package dev.remedy.fence.kube.agent;

import dev.remedy.fence.kube.agent.internal.KubeAgentSettings;
import dev.remedy.fence.kube.agent.internal.KubeConnection;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * What the agents of Kubernetes objects share: the object's name and namespace parameters, the connection
 * parameters, and the two ways to connect (a client built from the parameters at the first action, or the host's).
 */
abstract class KubeAgentProvider implements FenceAgentProvider {

    private final String type;
    private final String nameParameter;
    private final List<ParameterDescriptor> parameters;

    KubeAgentProvider(String type, List<ParameterDescriptor> target, Duration defaultPollInterval) {
        this.type = type;
        this.nameParameter = target.get(0).name();
        this.parameters = Stream.concat(target.stream(), KubeAgentSettings.parameters(defaultPollInterval).stream())
                .toList();
    }

    /** The agent for the object {@code namespace/name} over {@code kube}. Does no I/O. */
    abstract FenceAgent agent(KubeConnection kube, String namespace, String name);

    @Override
    public final String type() {
        return type;
    }

    @Override
    public final List<ParameterDescriptor> parameters() {
        return parameters;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The agent builds its client at its first action, from {@code kubeconfig} (else {@code KUBECONFIG},
     * {@code ~/.kube/config} or the pod's service account) and {@code token}, and closes it in {@code close()}.
     */
    @Override
    public final FenceAgent create(AgentConfig config) {
        KubeAgentSettings settings = KubeAgentSettings.of(config, List.of(nameParameter, "namespace"));
        return agent(KubeConnection.lazy(settings, "remedy-" + type + "-" + config.string(nameParameter)),
                config.string("namespace"), config.string(nameParameter));
    }

    /**
     * Creates an agent that talks through the host's {@code client} (an operator's, a test's), which the agent's
     * {@code close()} leaves open. Does no I/O.
     *
     * @throws InvalidConfigurationException listing every problem of {@code config}, including the parameters that
     *     would build a client of its own ({@code kubeconfig}, {@code token}, {@code ssl_insecure}): they would be
     *     ignored
     */
    public final FenceAgent create(AgentConfig config, KubernetesClient client) {
        Objects.requireNonNull(client, "client");
        if (KubeAgentSettings.buildsClient(config)) {
            throw new InvalidConfigurationException(type, List.of(new ConfigProblem("kubeconfig",
                    "kubeconfig, token and ssl_insecure configure a client of the agent's own, but a client was given",
                    "leave them out, or create the agent without a client")));
        }
        KubeAgentSettings settings = KubeAgentSettings.of(config, List.of(nameParameter, "namespace"));
        return agent(KubeConnection.over(client, settings, "remedy-" + type + "-" + config.string(nameParameter)),
                config.string("namespace"), config.string(nameParameter));
    }
}
