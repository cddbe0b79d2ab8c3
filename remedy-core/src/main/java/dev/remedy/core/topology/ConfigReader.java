package dev.remedy.core.topology;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns a parsed document (a {@link ConfigNode} tree) into a {@link FenceConfiguration}, collecting every problem
 * instead of stopping at the first. Walking the tree by hand, rather than binding it to classes, is what lets it
 * report all unknown keys at once, with their paths. Templates ({@link TemplateReader}), topologies
 * ({@link TopologyReader}) and parameters ({@link ParameterReader}) have readers of their own; this one reads the
 * nodes, checks that every method in use gets its required parameters, and has each checked by its agent
 * ({@link AgentChecks}). One instance reads one document.
 *
 * <p>No message quotes the value of a secret parameter, of an unknown parameter (it may be a misspelled secret)
 * or of anything written where a secret reference was expected.
 */
final class ConfigReader {

    private static final List<String> ROOT_KEYS = List.of("templates", "topologies", "nodes");

    private final ConfigProblems problems;
    private final FenceAgentRegistry registry;
    private final ParameterReader parameters;

    ConfigReader(String source, FenceAgentRegistry registry) {
        this.problems = new ConfigProblems(source);
        this.registry = registry;
        this.parameters = new ParameterReader(problems);
    }

    /**
     * Reads {@code root} (missing for an empty document).
     *
     * @throws FenceConfigurationException listing every problem
     */
    FenceConfiguration read(ConfigNode root) {
        Optional<ConfigNode> document = problems.document(root, "templates, topologies and nodes",
                "the keys " + String.join(", ", ROOT_KEYS));
        if (document.isPresent()) {
            problems.checkKeys(document.get(), "", ROOT_KEYS);
            ConfigNode templatesNode = document.get().get("templates");
            Set<String> declared = new LinkedHashSet<>();
            if (templatesNode != null && templatesNode.isObject()) {
                declared.addAll(templatesNode.keys());
            }
            Map<String, MethodTemplate> templates = new TemplateReader(problems, registry, parameters)
                    .read(templatesNode, "templates");
            List<Topology> topologies = new TopologyReader(problems, declared, templates)
                    .read(document.get().get("topologies"), "topologies");
            Map<String, Map<String, MethodParameters>> nodes = readNodes(document.get().get("nodes"), "nodes",
                    declared, templates);
            checkComplete(templates, topologies, nodes);
            if (problems.isEmpty()) {
                return new FenceConfiguration(problems.source(), templates, topologies, nodes);
            }
        }
        throw new FenceConfigurationException(problems.list());
    }

    private Map<String, Map<String, MethodParameters>> readNodes(ConfigNode node, String path, Set<String> declared,
                                                                 Map<String, MethodTemplate> templates) {
        Map<String, Map<String, MethodParameters>> nodes = new LinkedHashMap<>();
        if (node == null) {
            return nodes;
        }
        if (!node.isObject()) {
            problems.add(path, "must be a mapping of node names to their parameters per template, not "
                    + describe(node));
            return nodes;
        }
        node.properties().forEach(entry -> {
            String nodePath = child(path, entry.getKey());
            ConfigNode perTemplate = entry.getValue();
            if (!perTemplate.isObject()) {
                problems.add(nodePath, "must be a mapping of template names to this node's parameters, such as "
                        + "{bmc: {plug: " + entry.getKey() + "}}; not " + describe(perTemplate));
                return;
            }
            Map<String, MethodParameters> methods = new LinkedHashMap<>();
            perTemplate.properties().forEach(method -> {
                String at = child(nodePath, method.getKey());
                MethodTemplate template = templates.get(method.getKey());
                if (!declared.contains(method.getKey())) {
                    problems.add(at, "names the unknown template '" + method.getKey() + "'"
                            + hint(method.getKey(), declared, "known templates"));
                } else if (template != null) {
                    methods.put(method.getKey(), parameters.read(method.getValue(), at, template.provider(),
                            ParameterReader.Section.NODE));
                }
            });
            nodes.put(entry.getKey(), methods);
        });
        return nodes;
    }

    /**
     * Required agent parameters still missing after merging: for every node under {@code nodes} and every template
     * it gives parameters for; and for every template a topology uses that no node gives parameters for. Each method
     * that has them all is then checked by its agent ({@link AgentChecks}): the node's, and the template's alone.
     * (Node labels are not in the file, so which topology a node will match is known only to
     * {@link FenceConfiguration#planFor}, which checks the rest.)
     */
    private void checkComplete(Map<String, MethodTemplate> templates, List<Topology> topologies,
                               Map<String, Map<String, MethodParameters>> nodes) {
        AgentChecks agents = new AgentChecks(problems);
        nodes.forEach((node, methods) -> methods.forEach((name, own) -> {
            MethodTemplate template = templates.get(name);
            MethodParameters merged = template.parameters().overriddenBy(own);
            String methodPath = child(child("nodes", node), name);
            List<ParameterDescriptor> missing = missing(template, merged);
            for (ParameterDescriptor p : missing) {
                problems.add(methodPath, "misses the required parameter '" + p.name()
                        + "' of agent '" + template.agentType() + "'" + about(p) + "; give it here"
                        + (p.secret() ? " as " + ParameterReader.REFERENCE : "") + " or under "
                        + child(child("templates", name), p.secret() ? "secrets" : "parameters"));
            }
            if (missing.isEmpty()) {
                agents.check(template, own, methodPath);
            }
        }));
        Map<String, List<String>> usedBy = new LinkedHashMap<>();
        for (Topology topology : topologies) {
            topology.templateNames().forEach(t -> usedBy.computeIfAbsent(t, k -> new ArrayList<>())
                    .add(topology.name()));
        }
        usedBy.forEach((name, users) -> {
            MethodTemplate template = templates.get(name);
            if (template == null) {
                return;
            }
            List<ParameterDescriptor> missing = missing(template, template.parameters());
            if (missing.isEmpty()) {
                agents.check(template, MethodParameters.NONE, child("templates", name));
            } else if (nodes.values().stream().noneMatch(methods -> methods.containsKey(name))) {
                String names = missing.stream().map(p -> "'" + p.name() + "'" + about(p))
                        .collect(Collectors.joining(", "));
                problems.add(child("templates", name), "misses the required parameter"
                        + (missing.size() == 1 ? " " : "s ") + names + " of agent '" + template.agentType()
                        + "', and no node under nodes gives "
                        + (missing.size() == 1 ? "it" : "them") + ", so fencing any node with it (topology "
                        + String.join(", ", users) + ") would fail; give " + (missing.size() == 1 ? "it" : "them")
                        + " in this template or per node under " + child("nodes.NODE", name));
            }
        });
    }

    private static List<ParameterDescriptor> missing(MethodTemplate template, MethodParameters given) {
        return template.provider().parameters().stream().filter(p -> p.required() && !given.gives(p.name())).toList();
    }

    private static String about(ParameterDescriptor p) {
        return p.description().isEmpty() ? "" : " (" + p.description() + ")";
    }
}
