package dev.remedy.core.topology;

import dev.remedy.spi.FenceAgentProvider;
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

    @Override
    public String toString() {
        return name + "(" + agentType() + " " + parameters.values() + " secrets " + parameters.secrets() + ")";
    }
}
