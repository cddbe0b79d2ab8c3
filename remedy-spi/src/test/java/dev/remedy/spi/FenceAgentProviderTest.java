package dev.remedy.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("FenceAgentProvider and FenceAgent defaults")
class FenceAgentProviderTest {

    private static final TimeSource FROZEN = new TimeSource() {
        @Override
        public long nanoTime() {
            return 42;
        }

        @Override
        public Instant instant() {
            return Instant.EPOCH;
        }

        @Override
        public void sleep(Duration duration) {
            throw new AssertionError("nothing here sleeps");
        }
    };

    private static class MinimalProvider implements FenceAgentProvider {
        @Override
        public String type() {
            return "minimal";
        }

        @Override
        public String description() {
            return "fences nothing";
        }

        @Override
        public List<ParameterDescriptor> parameters() {
            return List.of(
                    ParameterDescriptor.builder("ip", ParameterType.STRING).required().fenceAgentsName("ipaddr").build(),
                    ParameterDescriptor.builder("password", ParameterType.STRING).secret().build());
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return Set.of(FenceAction.MONITOR);
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            config.requireValid();
            return (request, context) -> FenceOutcome.succeeded(PowerState.UNKNOWN, "ok");
        }
    }

    @Test
    @DisplayName("a provider implements the current SPI version unless it says otherwise")
    void defaultSpiVersion() {
        assertThat(new MinimalProvider().spiVersion()).isEqualTo(FenceAgentProvider.SPI_VERSION).isEqualTo(1);
    }

    @Test
    @DisplayName("a provider does power fencing unless it says otherwise")
    void defaultFencingKind() {
        assertThat(new MinimalProvider().fencingKind()).isEqualTo(FencingKind.POWER);
    }

    @Test
    @DisplayName("each fencing kind has a stable lower-case code")
    void fencingKindCodes() {
        assertThat(FencingKind.values()).extracting(FencingKind::code)
                .containsExactly("power", "fabric", "soft", "self");
    }

    @Test
    @DisplayName("configure() gives a builder bound to the provider's type and parameters")
    void configure() {
        MinimalProvider provider = new MinimalProvider();

        AgentConfig.Builder builder = provider.configure();
        AgentConfig config = builder.set("ipaddr", "10.0.0.9").set("password", "s3cr3t").build();

        assertThat(builder.isSecret("password")).isTrue();
        assertThat(config.agentType()).isEqualTo("minimal");
        assertThat(config.parameters()).isEqualTo(provider.parameters());
        assertThat(config.string("ip")).isEqualTo("10.0.0.9");
        assertThat(config.validate()).isEmpty();
        assertThat(provider.create(config)).isNotNull();
    }

    @Test
    @DisplayName("the default validate(config) lists what create refuses, and closes the agent create made")
    void defaultValidateOfConfig() {
        List<String> closed = new ArrayList<>();
        FenceAgentProvider provider = new MinimalProvider() {
            @Override
            public FenceAgent create(AgentConfig config) {
                config.requireValid();
                if (config.string("ip").equals("0.0.0.0")) {
                    throw new InvalidConfigurationException(type(), List.of(new ConfigProblem("ip",
                            "is 0.0.0.0, no host", "give the device's address")));
                }
                return new FenceAgent() {
                    @Override
                    public FenceOutcome execute(FenceRequest request, FenceContext context) {
                        throw new AssertionError("validate runs no action");
                    }

                    @Override
                    public void close() {
                        closed.add(config.string("ip"));
                    }
                };
            }
        };

        assertThat(provider.validate(provider.configure().set("ip", "10.0.0.9").build())).isEmpty();
        assertThat(closed).containsExactly("10.0.0.9");
        assertThat(provider.validate(provider.configure().set("ip", "0.0.0.0").build())).singleElement()
                .satisfies(p -> assertThat(p.toString()).isEqualTo("parameter 'ip': is 0.0.0.0, no host; give the "
                        + "device's address"));
        assertThat(provider.validate(provider.configure().build())).extracting(ConfigProblem::path)
                .containsExactly("ip");
    }

    @Test
    @DisplayName("the default validate() runs MONITOR on behalf of \"validate\"")
    void defaultValidateRunsMonitor() throws InterruptedException {
        List<FenceRequest> seen = new ArrayList<>();
        FenceAgent agent = (request, context) -> {
            seen.add(request);
            return FenceOutcome.succeeded(PowerState.UNKNOWN, "reachable");
        };

        FenceOutcome outcome = agent.validate(FenceContext.start(FROZEN, Duration.ofSeconds(1)));

        assertThat(outcome.detail()).isEqualTo("reachable");
        assertThat(seen).containsExactly(new FenceRequest(FenceAction.MONITOR, "validate"));
    }

    @Test
    @DisplayName("the default close() does nothing and can be called twice")
    void defaultClose() {
        FenceAgent agent = (request, context) -> FenceOutcome.refused("never");

        assertThatCode(() -> {
            agent.close();
            agent.close();
        }).doesNotThrowAnyException();
    }
}
