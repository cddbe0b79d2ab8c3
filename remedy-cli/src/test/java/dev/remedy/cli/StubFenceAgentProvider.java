package dev.remedy.cli;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A test agent of any type id whose every action ends as a function of the request says: to reach the exit codes
 * the fake agent never produces, to make an agent throw, or to claim a type id a second time.
 */
final class StubFenceAgentProvider implements FenceAgentProvider {

    private final String type;
    private final Function<FenceRequest, FenceOutcome> behaviour;

    StubFenceAgentProvider(String type, Function<FenceRequest, FenceOutcome> behaviour) {
        this.type = type;
        this.behaviour = behaviour;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public String description() {
        return "stub agent of the CLI tests";
    }

    @Override
    public List<ParameterDescriptor> parameters() {
        return List.of(ParameterDescriptor.builder("plug", ParameterType.STRING).required()
                .description("any name").build());
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return EnumSet.of(FenceAction.STATUS, FenceAction.OFF);
    }

    @Override
    public FenceAgent create(AgentConfig config) {
        config.requireValid();
        return (request, context) -> behaviour.apply(request);
    }
}
