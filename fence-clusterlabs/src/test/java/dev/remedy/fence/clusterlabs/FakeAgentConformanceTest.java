package dev.remedy.fence.clusterlabs;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.FenceAgentConformanceKit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fence-agents agent keeps the fence-agent contract with the fake ClusterLabs agent: {@code fence_fake} is the
 * reachable device (it checks the password), {@code fence_hung} one that never answers (every run hangs until
 * remedy kills its process group), {@code fence_echo} one that quotes its options, password included, in an error.
 */
class FakeAgentConformanceTest extends FenceAgentConformanceKit {

    private static final String PASSWORD = "conformance-password";

    @TempDir
    static Path agents;

    private static FakeAgent fake;
    private static ClusterLabsFenceAgentProvider provider;

    @BeforeAll
    static void install() {
        fake = FakeAgent.install(agents, "fence_fake").control("any.password=" + PASSWORD);
        FakeAgent.install(agents, "fence_hung").control("any.hang=1");
        FakeAgent.install(agents, "fence_echo").control("any.echo=1", "any.exit=1");
        provider = new ClusterLabsFenceAgentProvider(agents).specialise(Map.of("agent", "fence_fake"));
    }

    private static AgentConfig config(String agent, String password) {
        return provider.configure().set("agent", agent).set("ip", "192.0.2.1").set("username", "admin")
                .secret("password", Secret.of(password)).build();
    }

    @Override
    protected FenceAgentProvider provider() {
        return provider;
    }

    @Override
    protected AgentConfig reachableConfig() {
        return config("fence_fake", PASSWORD);
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return config("fence_hung", PASSWORD);
    }

    @Override
    protected Optional<AgentConfig> wrongCredentialsConfig() {
        return Optional.of(config("fence_fake", "not-the-password"));
    }

    @Override
    protected List<AgentConfig> echoingConfigs() {
        return List.of(config("fence_echo", PASSWORD));
    }

    @Override
    protected PowerTarget target() {
        return fake;
    }

    @Override
    protected Duration actionTimeout() {
        return Duration.ofSeconds(20);
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(1);
    }
}
