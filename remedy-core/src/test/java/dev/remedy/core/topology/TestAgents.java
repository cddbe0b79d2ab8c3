package dev.remedy.core.topology;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Minimal agent providers for configuration tests, each with just the parameters these tests read: {@code fake}
 * (power fencing) takes plug (required), username (default admin, alias login), password (required, secret) and
 * login_timeout (a duration); {@code switch} (fabric fencing) takes port (a required whole number, which its own
 * checks in {@code create} want from 1 to 65535) and token (required, secret, at least 8 characters by its own
 * checks) and persistent (whether its isolation outlives a switch reload, false by default); {@code sysrq} (soft
 * fencing, not in {@link #registry()}) takes host (required); {@code self-node} (self fencing, only in
 * {@link #withSelf()}) takes node (required).
 */
final class TestAgents {

    static final FenceAgentProvider FAKE = new Provider("fake", FencingKind.POWER, List.of(
            ParameterDescriptor.builder("plug", ParameterType.STRING).required()
                    .description("the outlet or machine to fence").build(),
            ParameterDescriptor.builder("username", ParameterType.STRING).defaultValue("admin")
                    .fenceAgentsName("login").build(),
            ParameterDescriptor.builder("password", ParameterType.STRING).required().secret().build(),
            ParameterDescriptor.builder("login_timeout", ParameterType.DURATION).defaultValue("10s").build()));

    static final FenceAgentProvider SWITCH = new Provider("switch", FencingKind.FABRIC, List.of(
            ParameterDescriptor.builder("port", ParameterType.INTEGER).required().build(),
            ParameterDescriptor.builder("token", ParameterType.STRING).required().secret().build(),
            ParameterDescriptor.builder("persistent", ParameterType.BOOLEAN).defaultValue("false").build()));

    static final FenceAgentProvider SYSRQ = new Provider("sysrq", FencingKind.SOFT, List.of(
            ParameterDescriptor.builder("host", ParameterType.STRING).required().build()));

    static final FenceAgentProvider SELF_NODE = new Provider("self-node", FencingKind.SELF, List.of(
            ParameterDescriptor.builder("node", ParameterType.STRING).required().build()));

    private TestAgents() {
    }

    static FenceAgentRegistry registry() {
        return FenceAgentRegistry.of(FAKE, SWITCH);
    }

    /** The three agents, one of each fencing kind. */
    static FenceAgentRegistry everyKind() {
        return FenceAgentRegistry.of(FAKE, SWITCH, SYSRQ);
    }

    /** The three agents of {@link #everyKind()} and the self-fencing {@code self-node}. */
    static FenceAgentRegistry withSelf() {
        return FenceAgentRegistry.of(FAKE, SWITCH, SYSRQ, SELF_NODE);
    }

    private record Provider(String type, FencingKind fencingKind, List<ParameterDescriptor> parameters)
            implements FenceAgentProvider {

        @Override
        public String description() {
            return "test agent " + type;
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return switch (fencingKind) {
                case SOFT -> Set.of(FenceAction.REBOOT, FenceAction.STATUS);
                case SELF -> Set.of(FenceAction.OFF, FenceAction.ON, FenceAction.STATUS);
                case POWER, FABRIC -> Set.of(FenceAction.STATUS);
            };
        }

        @Override
        public boolean isolationPersists(AgentConfig config) {
            return type.equals("switch") && config.bool("persistent");
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            config.requireValid();
            if (type.equals("switch")) {
                List<ConfigProblem> problems = new ArrayList<>();
                int port = config.integer("port");
                if (port < 1 || port > 65535) {
                    problems.add(new ConfigProblem("port", "is " + port + ", not a switch port", "give 1 to 65535"));
                }
                if (config.secret("token").orElseThrow().reveal().length() < 8) {
                    problems.add(new ConfigProblem("token", "is shorter than 8 characters", "give the whole token"));
                }
                if (!problems.isEmpty()) {
                    throw new InvalidConfigurationException(type, problems);
                }
            }
            return (request, context) -> FenceOutcome.refused("test agent does nothing");
        }
    }
}
