package dev.remedy.core.topology;

import dev.remedy.spi.config.AgentConfig;
import java.util.Objects;

/**
 * One fence method, resolved for one node: the template's name, its agent type and the complete, validated agent
 * configuration (template parameters, node parameters and resolved secrets).
 *
 * @param name      the template name, used in logs, events and confirmation evidence
 * @param agentType the agent type id
 * @param config    the agent configuration for this node
 */
public record ResolvedMethod(String name, String agentType, AgentConfig config) {

    /** Validates that every field is present. */
    public ResolvedMethod {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(agentType, "agentType");
        Objects.requireNonNull(config, "config");
    }
}
