package dev.remedy.test.fake;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The {@code fake} agent: fences the {@link FakePowerTarget}s of one {@link FakePowerLab} the way a BMC agent fences
 * a server (log in, send, poll status until confirmed, within the deadline). Used by the demo, by policy tests
 * and to prove the conformance kit. A test hands in its lab; the provider {@link java.util.ServiceLoader} creates
 * makes its own, which {@link #lab()} returns.
 */
@AgentType(FakeFenceAgentProvider.TYPE)
public final class FakeFenceAgentProvider implements FenceAgentProvider {

    /** The type id. */
    public static final String TYPE = "fake";

    private static final List<ParameterDescriptor> PARAMETERS = List.of(
            ParameterDescriptor.builder("plug", ParameterType.STRING).required().fenceAgentsName("plug")
                    .description("name of the fake target; created powered on at first use; names starting with '"
                            + FakePowerLab.UNREACHABLE_PREFIX + "' never answer").build(),
            ParameterDescriptor.builder("username", ParameterType.STRING).defaultValue("admin")
                    .fenceAgentsName("username").description("login name").build(),
            ParameterDescriptor.builder("password", ParameterType.STRING).required().secret()
                    .fenceAgentsName("password").description("login password").build(),
            ParameterDescriptor.builder("login_timeout", ParameterType.DURATION).defaultValue("5s")
                    .fenceAgentsName("login_timeout").description("how long to wait for the target to answer a login").build(),
            ParameterDescriptor.builder("power_wait", ParameterType.DURATION).defaultValue("500ms")
                    .fenceAgentsName("power_wait").description("wait after a power command before the first status poll").build(),
            ParameterDescriptor.builder("poll_interval", ParameterType.DURATION).defaultValue("1s")
                    .description("time between status polls while waiting for a power change").build());

    private final FakePowerLab lab;

    /** A provider with a new lab of its own (the constructor {@link java.util.ServiceLoader} calls). */
    public FakeFenceAgentProvider() {
        this(new FakePowerLab());
    }

    /** A provider whose agents fence the targets of {@code lab}. */
    public FakeFenceAgentProvider(FakePowerLab lab) {
        this.lab = Objects.requireNonNull(lab, "lab");
    }

    /** The lab whose targets this provider's agents fence. */
    public FakePowerLab lab() {
        return lab;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "simulated power switch of in-memory fake targets, for demos and tests";
    }

    @Override
    public List<ParameterDescriptor> parameters() {
        return PARAMETERS;
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return EnumSet.allOf(FenceAction.class);
    }

    @Override
    public FenceAgent create(AgentConfig config) {
        config.requireValid();
        List<ConfigProblem> zero = Stream.of("login_timeout", "poll_interval")
                .filter(name -> config.duration(name).isZero())
                .map(name -> new ConfigProblem(name, "is zero, which would make the agent spin", "give at least 1ms"))
                .toList();
        if (!zero.isEmpty()) {
            throw new InvalidConfigurationException(TYPE, zero);
        }
        return new FakeFenceAgent(lab, config.string("plug"), config.string("username"),
                config.secret("password").orElseThrow(), config.duration("login_timeout"),
                config.duration("power_wait"), config.duration("poll_interval"));
    }
}
