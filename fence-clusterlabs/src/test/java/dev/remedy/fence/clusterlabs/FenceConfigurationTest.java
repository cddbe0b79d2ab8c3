package dev.remedy.fence.clusterlabs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.topology.FenceConfigurationException;
import dev.remedy.core.topology.FenceConfigurationLoader;
import dev.remedy.core.topology.SecretRef;
import dev.remedy.core.topology.SecretResolver;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fence configuration names a ClusterLabs agent in a template: the template is read and checked with that agent's
 * parameters, as a native agent's would be, and the method it makes fences.
 */
@DisplayName("a fence configuration with the fence-agents agent")
class FenceConfigurationTest {

    private static final SecretResolver SECRETS = SecretResolver.of(Map.of(SecretRef.env("BMC_PASSWORD"),
            Secret.of("bmc-password")));

    @TempDir
    Path agents;

    private FakeAgent fake;
    private FenceAgentRegistry registry;

    @BeforeEach
    void install() {
        fake = FakeAgent.install(agents, "fence_fake");
        registry = FenceAgentRegistry.of(new ClusterLabsFenceAgentProvider(agents));
    }

    private static String config(String parameters) {
        return """
                templates:
                  bmc:
                    agent: fence-agents
                    parameters: {%s}
                    secrets: {password: {env: BMC_PASSWORD}}
                topologies:
                  - name: default
                    power_management: {levels: [[bmc]]}
                """.formatted(parameters);
    }

    @Test
    @DisplayName("the agent's parameters and secrets are read, and the method fences with them")
    void readAndFence() throws InterruptedException {
        NodePlan plan = new FenceConfigurationLoader().parse(config("agent: fence_fake, ip: 10.0.0.9, username: admin,"
                + " lanplus: true"), "fence.yaml", registry).planFor("n1", Map.of(), SECRETS).orElseThrow();
        ResolvedMethod bmc = plan.step(FenceStep.POWER_MANAGEMENT).levels().get(0).get(0);

        FenceOutcome off;
        try (FenceAgent agent = registry.create(bmc.config())) {
            off = agent.execute(FenceRequest.of(FenceAction.OFF), FenceContext.start(TimeSource.system(),
                    Duration.ofSeconds(20)));
        }

        assertThat(off.isSuccess()).as("%s", off).isTrue();
        assertThat(fake.power()).isEqualTo(PowerState.OFF);
        assertThat(fake.runs().get(1).options()).contains("\"password\": \"bmc-password\"", "\"lanplus\": \"1\"",
                "\"ip\": \"10.0.0.9\"");
    }

    @Test
    @DisplayName("a misspelt or malformed parameter of the agent is a problem at its place in the file")
    void problemsNamed() {
        assertThatThrownBy(() -> new FenceConfigurationLoader().parse(config("agent: fence_fake, ip: 10.0.0.9,"
                + " username: admin, lanplsu: true, ipport: x"), "fence.yaml", registry))
                .isInstanceOf(FenceConfigurationException.class)
                .hasMessageContaining("templates.bmc.parameters.lanplsu")
                .hasMessageContaining("did you mean 'lanplus'?")
                .hasMessageContaining("templates.bmc.parameters.ipport");
    }

    @Test
    @DisplayName("an agent that is not installed, or a *_script option, is a problem at its place in the file")
    void refusedValues() {
        assertThatThrownBy(() -> new FenceConfigurationLoader().parse(config("agent: fence_nothere"), "fence.yaml",
                registry)).isInstanceOf(FenceConfigurationException.class)
                .hasMessageContaining("templates.bmc.parameters.agent")
                .hasMessageContaining("'fence_nothere' is not installed");
        assertThatThrownBy(() -> new FenceConfigurationLoader().parse(config("agent: fence_fake, password_script:"
                + " /bin/cat"), "fence.yaml", registry)).isInstanceOf(FenceConfigurationException.class)
                .hasMessageContaining("templates.bmc.parameters.password_script")
                .hasMessageContaining("runs a command");
    }
}
