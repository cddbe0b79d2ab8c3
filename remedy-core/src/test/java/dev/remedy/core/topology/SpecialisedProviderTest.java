package dev.remedy.core.topology;

import static dev.remedy.core.topology.FenceConfigurationLoaderTest.SECRETS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A provider whose parameters depend on one of the configuration's values (as the fence-agents bridge's depend on
 * the ClusterLabs agent it runs): the loader reads and checks each template with the provider it specialises to.
 */
@DisplayName("templates read with the provider specialised to their values")
class SpecialisedProviderTest {

    /** Type {@code family}: {@code model} picks the parameters; model {@code cloud} has a secret {@code api_key}. */
    private record Family(List<ParameterDescriptor> parameters) implements FenceAgentProvider {

        private static final ParameterDescriptor MODEL = ParameterDescriptor.builder("model", ParameterType.STRING)
                .required().build();

        @Override
        public String type() {
            return "family";
        }

        @Override
        public String description() {
            return "a family of agents, one per model";
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return Set.of(FenceAction.STATUS);
        }

        @Override
        public FenceAgentProvider specialise(Map<String, String> values) {
            String model = values.getOrDefault("model", "");
            return switch (model) {
                case "cloud" -> new Family(List.of(MODEL,
                        ParameterDescriptor.builder("region", ParameterType.STRING).required().build(),
                        ParameterDescriptor.builder("api_key", ParameterType.STRING).required().secret().build()));
                case "" -> this;
                default -> throw new InvalidConfigurationException(type(), List.of(new ConfigProblem("model",
                        "names '" + model + "', which is not installed", "install it or name another model")));
            };
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            config.requireValid();
            return (request, context) -> FenceOutcome.refused("test agent does nothing");
        }
    }

    private static final FenceAgentRegistry AGENTS = FenceAgentRegistry.of(new Family(List.of(Family.MODEL)));

    private final FenceConfigurationLoader loader = new FenceConfigurationLoader();

    private static String config(String model) {
        return """
                templates:
                  api: {agent: family, parameters: {model: %s, region: eu-1}, secrets: {api_key: {env: BMC_PASSWORD}}}
                topologies:
                  - name: default
                    power_management: {levels: [[api]]}
                """.formatted(model);
    }

    @Test
    @DisplayName("the specialised parameters are read, secrets included, and reach the node's plan")
    void specialisedParameters() {
        NodePlan plan = loader.parse(config("cloud"), "fence.yaml", AGENTS).planFor("n1", Map.of(), SECRETS)
                .orElseThrow();

        ResolvedMethod api = plan.step(FenceStep.POWER_MANAGEMENT).levels().get(0).get(0);
        assertThat(api.config().string("region")).isEqualTo("eu-1");
        assertThat(api.config().secret("api_key")).isPresent();
    }

    @Test
    @DisplayName("a value the provider cannot describe is a problem at its parameter; the generic provider refuses"
            + " parameters only a specialised one has")
    void refused() {
        assertThatThrownBy(() -> loader.parse(config("mainframe"), "fence.yaml", AGENTS))
                .isInstanceOf(FenceConfigurationException.class)
                .hasMessageContaining("templates.api.parameters.model: agent 'family': names 'mainframe', which is"
                        + " not installed");
        assertThatThrownBy(() -> loader.parse(config("cloud").replace("model: cloud, ", ""), "fence.yaml", AGENTS))
                .isInstanceOf(FenceConfigurationException.class)
                .hasMessageContaining("templates.api.parameters.region");
    }
}
