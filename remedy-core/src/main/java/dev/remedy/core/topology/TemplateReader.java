package dev.remedy.core.topology;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.list;
import static dev.remedy.config.ConfigNames.suggestion;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the {@code templates} of a fence configuration: each a known agent type (from the registry) with the
 * parameters and secret references every node shares. A template with problems is left out, and its problems
 * recorded.
 */
final class TemplateReader {

    private static final List<String> TEMPLATE_KEYS = List.of("agent", "parameters", "secrets");

    private final ConfigProblems problems;
    private final FenceAgentRegistry registry;
    private final ParameterReader parameters;

    TemplateReader(ConfigProblems problems, FenceAgentRegistry registry, ParameterReader parameters) {
        this.problems = problems;
        this.registry = registry;
        this.parameters = parameters;
    }

    /** The templates at {@code path} by name, in document order; none when {@code node} is null. */
    Map<String, MethodTemplate> read(ConfigNode node, String path) {
        Map<String, MethodTemplate> templates = new LinkedHashMap<>();
        if (node == null) {
            return templates;
        }
        if (!node.isObject()) {
            problems.add(path, "must be a mapping of template names to templates, not " + describe(node));
            return templates;
        }
        node.properties().forEach(entry -> template(entry.getKey(), entry.getValue(), child(path, entry.getKey()))
                .ifPresent(t -> templates.put(t.name(), t)));
        return templates;
    }

    private Optional<MethodTemplate> template(String name, ConfigNode node, String path) {
        // Without a known agent there are no descriptors to check the parameters against.
        return problems.mappingWith(node, path, "with agent, parameters and secrets", TEMPLATE_KEYS)
                .flatMap(template -> agent(template.get("agent"), child(path, "agent"))
                        .flatMap(agent -> specialised(agent, template.get("parameters"), child(path, "parameters")))
                        .map(provider -> {
                    MethodParameters values = parameters.read(template.get("parameters"), child(path, "parameters"),
                            provider, ParameterReader.Section.PARAMETERS);
                    MethodParameters secrets = parameters.read(template.get("secrets"), child(path, "secrets"),
                            provider, ParameterReader.Section.SECRETS);
                    return new MethodTemplate(name, provider, values.overriddenBy(secrets));
                }));
    }

    /**
     * {@code agent} as it describes a template whose plain parameters are {@code node}
     * ({@link FenceAgentProvider#specialise}); empty, with its problems recorded, when it cannot.
     */
    private Optional<FenceAgentProvider> specialised(FenceAgentProvider agent, ConfigNode node, String path) {
        Map<String, String> values = new LinkedHashMap<>();
        if (node != null && node.isObject()) {
            node.properties().forEach(e -> {
                if (!e.getValue().isContainerNode() && !e.getValue().isNull()) {
                    values.put(e.getKey(), e.getValue().asText());
                }
            });
        }
        try {
            return Optional.of(agent.specialise(values));
        } catch (InvalidConfigurationException e) {
            e.problems().forEach(p -> problems.add(child(path, p.path()), "agent '" + agent.type() + "': "
                    + p.message()));
            return Optional.empty();
        }
    }

    private Optional<FenceAgentProvider> agent(ConfigNode node, String path) {
        List<String> known = registry.types().stream().sorted().toList();
        return problems.text(node, path, "the agent type id, one of: " + list(known)).flatMap(type -> {
            try {
                return Optional.of(registry.provider(type));
            } catch (RemedyException unknownOrDuplicate) {
                String near = registry.duplicates().containsKey(type) ? "" : suggestion(type, known);
                problems.add(path, unknownOrDuplicate.getMessage() + near);
                return Optional.empty();
            }
        });
    }
}
