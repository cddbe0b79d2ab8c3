package dev.remedy.examples.agent;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Agent type {@code script}: fences through a power-control program run as {@code COMMAND on|off|status PLUG},
 * which prints {@code on} or {@code off} for status and exits non-zero on failure. The password reaches the
 * program in the environment variable {@code REMEDY_PASSWORD}, never on its command line.
 */
@AgentType("script")
public final class ScriptFenceAgentProvider implements FenceAgentProvider {

    private static final List<ParameterDescriptor> PARAMETERS = List.of(
            ParameterDescriptor.builder("command", ParameterType.STRING).required()
                    .description("path of the power-control program").build(),
            ParameterDescriptor.builder("plug", ParameterType.STRING).required().fenceAgentsName("plug")
                    .description("the outlet or machine the program controls").build(),
            ParameterDescriptor.builder("password", ParameterType.STRING).secret().fenceAgentsName("password")
                    .description("handed to the program as REMEDY_PASSWORD").build(),
            ParameterDescriptor.builder("poll_interval", ParameterType.DURATION).defaultValue("1s")
                    .description("time between status reads while waiting for a power change").build());

    @Override
    public String type() {
        return "script";
    }

    @Override
    public String description() {
        return "power control through a local program (COMMAND on|off|status PLUG)";
    }

    @Override
    public List<ParameterDescriptor> parameters() {
        return PARAMETERS;
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return EnumSet.of(FenceAction.ON, FenceAction.OFF, FenceAction.REBOOT, FenceAction.STATUS,
                FenceAction.MONITOR);
    }

    @Override
    public FenceAgent create(AgentConfig config) {
        config.requireValid();
        return new ScriptFenceAgent(Path.of(config.string("command")), config.string("plug"),
                config.secret("password"), config.duration("poll_interval"));
    }
}
