package dev.remedy.fence.kube.agent.internal;

import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.config.Secret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How an agent reaches the API server and how it polls, read from its configuration.
 *
 * @param kubeconfig     the kubeconfig file to read; empty: fabric8's automatic configuration ({@code KUBECONFIG},
 *                       {@code ~/.kube/config}, or the pod's service account)
 * @param token          a bearer token that replaces the kubeconfig's credentials
 * @param sslInsecure    whether the API server's certificate is not verified
 * @param pollInterval   time between reads while a power change is confirmed
 * @param requestTimeout the longest one API request may take (less when the action's deadline is nearer)
 */
public record KubeAgentSettings(Optional<Path> kubeconfig, Optional<Secret> token, boolean sslInsecure,
                                Duration pollInterval, Duration requestTimeout) {

    /** The shortest poll interval accepted: a tighter loop only loads the API server. */
    public static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(10);

    /** Parameters that configure the connection to the API server and the polling, shared by the agents. */
    public static List<ParameterDescriptor> parameters(Duration defaultPollInterval) {
        return List.of(
                ParameterDescriptor.builder("kubeconfig", ParameterType.STRING).fenceAgentsName("kubeconfig")
                        .description("kubeconfig file of the cluster; default: KUBECONFIG, ~/.kube/config or the pod's"
                                + " service account").build(),
                ParameterDescriptor.builder("token", ParameterType.STRING).secret()
                        .description("bearer token to authenticate with, instead of the kubeconfig's user").build(),
                ParameterDescriptor.builder("ssl_insecure", ParameterType.BOOLEAN).defaultValue("false")
                        .fenceAgentsName("ssl_insecure")
                        .description("do not verify the API server's certificate (unsafe; for test clusters)").build(),
                ParameterDescriptor.builder("poll_interval", ParameterType.DURATION)
                        .defaultValue(defaultPollInterval.toMillis() + "ms")
                        .description("time between reads of the object while a power change is confirmed").build(),
                ParameterDescriptor.builder("request_timeout", ParameterType.DURATION).defaultValue("10s")
                        .description("the longest one API request may take (less when the action's deadline is"
                                + " nearer)").build());
    }

    /**
     * Reads the settings of {@code config}, which must be valid.
     *
     * @throws InvalidConfigurationException listing every problem of {@code config} and of these settings
     */
    public static KubeAgentSettings of(AgentConfig config, List<String> names) {
        List<ConfigProblem> problems = new ArrayList<>(config.validate());
        for (String name : names) {
            if (config.isSet(name) && config.text(name).orElse("").isBlank()) {
                problems.add(new ConfigProblem(name, "is blank", "give the name of the object, as kubectl shows it"));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(config.agentType(), problems);
        }
        Duration poll = config.duration("poll_interval");
        Duration request = config.duration("request_timeout");
        if (poll.compareTo(MIN_POLL_INTERVAL) < 0) {
            problems.add(new ConfigProblem("poll_interval", "is " + poll.toMillis() + " ms", "give at least "
                    + MIN_POLL_INTERVAL.toMillis() + "ms"));
        }
        if (request.isZero()) {
            problems.add(new ConfigProblem("request_timeout", "is zero", "give a positive duration, e.g. 10s"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(config.agentType(), problems);
        }
        return new KubeAgentSettings(config.text("kubeconfig").filter(s -> !s.isBlank()).map(Path::of),
                config.secret("token").filter(t -> !t.blank()), config.bool("ssl_insecure"), poll, request);
    }

    /** Whether any parameter that builds a client was given (kubeconfig, token, ssl_insecure). */
    public static boolean buildsClient(AgentConfig config) {
        return config.isSet("kubeconfig") || config.isSet("token") || config.isSet("ssl_insecure");
    }
}
