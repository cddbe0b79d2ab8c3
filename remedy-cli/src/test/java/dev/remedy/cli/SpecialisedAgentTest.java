package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.PowerState;
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
 * {@code remedy fence} with an agent whose parameters depend on one of its values (as the fence-agents agent's
 * depend on the ClusterLabs agent it runs): the command describes the configuration with the provider specialised
 * to the {@code -p} values.
 */
@DisplayName("remedy fence with an agent specialised to its values")
class SpecialisedAgentTest {

    /** Type {@code family}: {@code model} picks the parameters; model {@code cloud} has {@code region} and a secret. */
    private record Family(List<ParameterDescriptor> parameters) implements FenceAgentProvider {

        private static final ParameterDescriptor MODEL = ParameterDescriptor.builder("model", ParameterType.STRING)
                .required().description("the model").build();

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
            AgentConfig valid = config.requireValid();
            return (request, context) -> FenceOutcome.succeeded(PowerState.ON, "region " + valid.string("region"));
        }
    }

    private final CliRunner cli = new CliRunner().variable("API_KEY", "cloud-api-key")
            .registry(FenceAgentRegistry.of(new Family(List.of(Family.MODEL))));

    @Test
    @DisplayName("a parameter only the specialised provider has is accepted, and its secret read from a variable")
    void specialised() {
        CliRunner.Result result = cli.run("fence", "family", "status", "-p", "model=cloud", "-p", "region=eu-1",
                "--secret-env", "api_key=API_KEY");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).contains("Status: ON", "region eu-1");
    }

    @Test
    @DisplayName("a secret of the specialised provider is refused on the command line")
    void secretOnTheCommandLine() {
        CliRunner.Result result = cli.run("fence", "family", "status", "-p", "model=cloud", "-p", "region=eu-1", "-p",
                "api_key=cloud-api-key");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("parameter 'api_key' is secret");
    }

    @Test
    @DisplayName("a value the provider cannot describe is bad input, named at its parameter")
    void notDescribed() {
        CliRunner.Result result = cli.run("fence", "family", "status", "-p", "model=mainframe");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("parameter 'model': names 'mainframe', which is not installed");
    }
}
