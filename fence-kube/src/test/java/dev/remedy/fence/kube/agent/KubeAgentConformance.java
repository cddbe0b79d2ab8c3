package dev.remedy.fence.kube.agent;

import dev.remedy.spi.config.AgentConfig;
import dev.remedy.test.conformance.FenceAgentConformanceKit;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit as the agents of Kubernetes objects run it, on the mock API server ({@code *ConformanceTest})
 * or a real one ({@code *ConformanceIT}): configured as a user would (a kubeconfig file written for the server, the
 * token as a secret, a short poll interval), remedy's log lines at every level for the kit's leak search, and budgets
 * that fit a fake controller stepping every few milliseconds.
 */
abstract class KubeAgentConformance extends FenceAgentConformanceKit {

    @TempDir
    static Path dir;

    @BeforeAll
    static void logForTheKit() {
        KubeConformance.logForTheKit();
    }

    @AfterAll
    static void restoreLogging() {
        KubeConformance.restoreLogging();
    }

    /** The admin client of the API server the agent talks to. */
    protected abstract KubernetesClient client();

    /** The bearer token the agent authenticates with: by default {@link KubeConformance#TOKEN}, which the mock takes. */
    protected String token() {
        return KubeConformance.TOKEN;
    }

    /** Sets the agent's parameter that names its object ({@code host}, {@code plug}). */
    protected abstract AgentConfig.Builder object(AgentConfig.Builder builder);

    @Override
    protected AgentConfig reachableConfig() {
        return config("reachable", client().getMasterUrl().toString(), token());
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return config("unreachable", KubeConformance.closedPort(), token());
    }

    /** The agent's configuration for the server at {@code url} with {@code token}, its kubeconfig named {@code file}. */
    protected final AgentConfig config(String file, String url, String token) {
        return KubeConformance.config(object(provider().configure()), dir, file, url, token).build();
    }

    @Override
    protected Duration actionTimeout() {
        return Duration.ofSeconds(10);
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(3);
    }

    @Override
    protected Duration deadlineGrace() {
        return Duration.ofSeconds(1);
    }
}
