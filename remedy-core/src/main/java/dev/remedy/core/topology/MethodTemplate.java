package dev.remedy.core.topology;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import java.util.Objects;

/** A named fence method template: the agent that carries it out and the parameters every node shares. */
record MethodTemplate(String name, FenceAgentProvider provider, MethodParameters parameters) {

    MethodTemplate {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(parameters, "parameters");
    }

    String agentType() {
        return provider.type();
    }

    /** The template's own plain values as its agent's configuration (secrets and node parameters not in it). */
    AgentConfig plainConfig() {
        return provider.configure().setAll(parameters.values()).build();
    }

    @Override
    public String toString() {
        return name + "(" + agentType() + " " + parameters.values() + " secrets " + parameters.secrets() + ")";
    }
}
