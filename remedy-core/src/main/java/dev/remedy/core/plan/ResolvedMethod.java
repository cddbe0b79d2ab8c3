package dev.remedy.core.plan;

import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import java.util.Objects;

/**
 * One fence method, resolved for one node: the template's name, its agent type, what kind of fencing the agent
 * does and the complete, validated agent configuration (template parameters, node parameters and resolved
 * secrets).
 *
 * @param name      the template name, used in logs, events and confirmation evidence
 * @param agentType the agent type id
 * @param config    the agent configuration for this node, for {@code agentType}
 * @param kind      what the agent's fencing does ({@link dev.remedy.spi.FenceAgentProvider#fencingKind()}); the
 *                  flow chooses the action of an isolation method by it
 */
public record ResolvedMethod(String name, String agentType, AgentConfig config, FencingKind kind) {

    /** Validates that every field is present and that the configuration is for the agent type. */
    public ResolvedMethod {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(agentType, "agentType");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(kind, "kind");
        if (!config.agentType().equals(agentType)) {
            throw new IllegalArgumentException("method '" + name + "' is of agent type '" + agentType
                    + "' but its configuration is for '" + config.agentType() + "'");
        }
    }

    /** A method of a {@link FencingKind#POWER} agent, the kind of most agents. */
    public ResolvedMethod(String name, String agentType, AgentConfig config) {
        this(name, agentType, config, FencingKind.POWER);
    }
}
