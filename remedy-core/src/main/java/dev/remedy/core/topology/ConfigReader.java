package dev.remedy.core.topology;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.hint;
import static dev.remedy.config.ConfigNames.index;
import static dev.remedy.config.ConfigNames.list;
import static dev.remedy.config.ConfigNames.suggestion;

import dev.remedy.config.ConfigNames;
import dev.remedy.config.ConfigNode;
import dev.remedy.core.flow.FenceStep;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Durations;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Turns a parsed document (a {@link ConfigNode} tree) into a {@link FenceConfiguration}, collecting every problem instead
 * of stopping at the first. Walking the tree by hand, rather than binding it to classes, is what lets it report
 * all unknown keys at once, with their paths. One instance reads one document.
 *
 * <p>No message quotes the value of a secret parameter, of an unknown parameter (it may be a misspelled secret)
 * or of anything written where a secret reference was expected.
 */
final class ConfigReader {

    private static final List<String> ROOT_KEYS = List.of("templates", "topologies", "nodes");
    private static final List<String> TEMPLATE_KEYS = List.of("agent", "parameters", "secrets");
    private static final List<String> TOPOLOGY_KEYS = Stream.concat(Stream.of("name", "selector"),
            Arrays.stream(FenceStep.values()).map(FenceStep::code)).toList();
    private static final List<String> STEP_KEYS = List.of("timeout", "retries", "levels");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String REFERENCE = "{env: VAR} or {file: PATH}";

    /** Where a parameter map sits, which decides whether plain values or secret references belong there. */
    private enum Section {
        /** {@code templates.T.parameters}: plain values only. */
        PARAMETERS,
        /** {@code templates.T.secrets}: secret references only. */
        SECRETS,
        /** {@code nodes.N.T}: plain values, and secret references for secret parameters. */
        NODE
    }

    private final String source;
    private final FenceAgentRegistry registry;
    private final List<ConfigProblem> issues = new ArrayList<>();

    ConfigReader(String source, FenceAgentRegistry registry) {
        this.source = source;
        this.registry = registry;
    }

    /**
     * Reads {@code root} (null or missing for an empty document).
     *
     * @throws FenceConfigurationException listing every problem
     */
    FenceConfiguration read(ConfigNode root) {
        if (root == null || root.isMissingNode() || root.isNull()) {
            issue("", "the document is empty; give templates, topologies and nodes");
        } else if (!root.isObject()) {
            issue("", "the document must be a mapping with the keys " + list(ROOT_KEYS) + ", not " + describe(root));
        } else {
            checkKeys(root, "", ROOT_KEYS);
            Set<String> declared = new LinkedHashSet<>();
            ConfigNode templatesNode = root.get("templates");
            if (templatesNode != null && templatesNode.isObject()) {
                templatesNode.fieldNames().forEachRemaining(declared::add);
            }
            Map<String, MethodTemplate> templates = readTemplates(templatesNode, "templates");
            List<Topology> topologies = readTopologies(root.get("topologies"), "topologies", declared, templates);
            Map<String, Map<String, MethodParameters>> nodes = readNodes(root.get("nodes"), "nodes", declared,
                    templates);
            checkComplete(templates, topologies, nodes);
            if (issues.isEmpty()) {
                return new FenceConfiguration(source, templates, topologies, nodes);
            }
        }
        throw new FenceConfigurationException(issues);
    }

    // ------------------------------------------------------------------------------------------------ templates

    private Map<String, MethodTemplate> readTemplates(ConfigNode node, String path) {
        Map<String, MethodTemplate> templates = new LinkedHashMap<>();
        if (node == null) {
            return templates;
        }
        if (!node.isObject()) {
            issue(path, "must be a mapping of template names to templates, not " + describe(node));
            return templates;
        }
        node.properties().forEach(entry -> readTemplate(entry.getKey(), entry.getValue(),
                child(path, entry.getKey())).ifPresent(t -> templates.put(t.name(), t)));
        return templates;
    }

    private Optional<MethodTemplate> readTemplate(String name, ConfigNode node, String path) {
        if (!node.isObject()) {
            issue(path, "must be a mapping with agent, parameters and secrets, not " + describe(node));
            return Optional.empty();
        }
        checkKeys(node, path, TEMPLATE_KEYS);
        // Without a known agent there are no descriptors to check the parameters against.
        return agent(node.get("agent"), child(path, "agent")).map(provider -> {
            MethodParameters values = readParameters(node.get("parameters"), child(path, "parameters"), provider,
                    Section.PARAMETERS);
            MethodParameters secrets = readParameters(node.get("secrets"), child(path, "secrets"), provider,
                    Section.SECRETS);
            return new MethodTemplate(name, provider, values.overriddenBy(secrets));
        });
    }

    private Optional<FenceAgentProvider> agent(ConfigNode node, String path) {
        if (node == null || !node.isTextual()) {
            issue(path, (node == null ? "is missing" : "must be text, not " + describe(node))
                    + "; give the agent type id, one of: " + list(knownTypes()));
            return Optional.empty();
        }
        String type = node.asText();
        try {
            return Optional.of(registry.provider(type));
        } catch (RemedyException unknownOrDuplicate) {
            String near = registry.duplicates().containsKey(type) ? "" : suggestion(type, knownTypes());
            issue(path, unknownOrDuplicate.getMessage() + near);
            return Optional.empty();
        }
    }

    private List<String> knownTypes() {
        return registry.types().stream().sorted().toList();
    }

    // ----------------------------------------------------------------------------------------------- parameters

    private MethodParameters readParameters(ConfigNode node, String path, FenceAgentProvider provider,
                                            Section section) {
        if (node == null) {
            return MethodParameters.NONE;
        }
        if (!node.isObject()) {
            issue(path, "must be a mapping of parameter names to " + (section == Section.SECRETS
                    ? "secret references " + REFERENCE : "values") + ", not " + describe(node));
            return MethodParameters.NONE;
        }
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, SecretRef> secrets = new LinkedHashMap<>();
        Map<String, String> givenAs = new HashMap<>();
        node.properties().forEach(entry -> {
            String key = entry.getKey();
            ConfigNode value = entry.getValue();
            String at = child(path, key);
            Optional<ParameterDescriptor> found = provider.parameters().stream().filter(p -> p.answersTo(key))
                    .findFirst();
            if (found.isEmpty()) {
                List<String> names = provider.parameters().stream().map(ParameterDescriptor::name).toList();
                issue(at, "is not a parameter of agent '" + provider.type() + "'"
                        + hint(key, names, "its parameters are"));
                return;
            }
            ParameterDescriptor parameter = found.get();
            String earlier = givenAs.putIfAbsent(parameter.name(), key);
            if (earlier != null) {
                issue(at, "gives parameter '" + parameter.name() + "' a second time (as '" + earlier
                        + "' already); give it once");
                return;
            }
            if (parameter.secret()) {
                readSecret(key, value, at, section).ifPresent(ref -> secrets.put(parameter.name(), ref));
            } else {
                readPlain(key, value, at, section, provider, parameter)
                        .ifPresent(text -> values.put(parameter.name(), text));
            }
        });
        return new MethodParameters(values, secrets);
    }

    private Optional<SecretRef> readSecret(String key, ConfigNode value, String at, Section section) {
        switch (section) {
            case PARAMETERS -> {
                issue(at, "'" + key + "' is secret: give it under secrets as " + REFERENCE + ", never in plain text");
                return Optional.empty();
            }
            case NODE -> {
                if (!value.isObject()) {
                    issue(at, "'" + key + "' is secret: give it as " + REFERENCE + ", never in plain text");
                    return Optional.empty();
                }
                return secretRef(value, at);
            }
            default -> {
                return secretRef(value, at);
            }
        }
    }

    private Optional<String> readPlain(String key, ConfigNode value, String at, Section section,
                                       FenceAgentProvider provider, ParameterDescriptor parameter) {
        if (section == Section.SECRETS) {
            issue(at, "'" + key + "' is not secret: give its value under parameters");
            return Optional.empty();
        }
        if (value.isObject() && (value.has("env") || value.has("file"))) {
            issue(at, "'" + key + "' is not secret: give its value in plain text, not as a secret reference");
            return Optional.empty();
        }
        Optional<String> text = scalar(value, at);
        text.ifPresent(given -> {
            List<ConfigProblem> problems = provider.configure().set(parameter.name(), given).build().validate();
            problems.stream().filter(p -> p.path().equals(parameter.name()))
                    .forEach(p -> issues.add(p.at(source, at)));
        });
        return text;
    }

    private Optional<SecretRef> secretRef(ConfigNode value, String at) {
        if (!value.isObject()) {
            issue(at, "give a reference " + REFERENCE + ", never the secret itself");
            return Optional.empty();
        }
        List<String> keys = new ArrayList<>();
        value.fieldNames().forEachRemaining(keys::add);
        boolean others = keys.stream().anyMatch(k -> !k.equals("env") && !k.equals("file"));
        if (others || keys.size() != 1) {
            // Other keys are not named: YAML reads a secret written as {hunter2} as a key.
            issue(at, "must be exactly one of " + REFERENCE + (others ? "; it has other keys (not shown, in case "
                    + "one is the secret itself)" : ""));
            return Optional.empty();
        }
        String kind = keys.get(0);
        boolean env = kind.equals("env");
        ConfigNode location = value.get(kind);
        String where = child(at, kind);
        if (!location.isTextual() || location.asText().isBlank()) {
            issue(where, "must be " + (env ? "the name of an environment variable" : "an absolute file path")
                    + " as text");
            return Optional.empty();
        }
        String text = location.asText();
        if (env && !ENV_NAME.matcher(text).matches()) {
            issue(where, "is not an environment variable name (letters, digits and _, not starting with a digit);"
                    + " the name is not shown in case it is the secret itself");
            return Optional.empty();
        }
        if (!env && !isAbsolute(text)) {
            issue(where, "must be an absolute file path, such as /run/secrets/bmc-password");
            return Optional.empty();
        }
        return Optional.of(env ? SecretRef.env(text) : SecretRef.file(text));
    }

    private static boolean isAbsolute(String path) {
        try {
            return Path.of(path).isAbsolute();
        } catch (InvalidPathException e) {
            return false;
        }
    }

    // ----------------------------------------------------------------------------------------------- topologies

    private List<Topology> readTopologies(ConfigNode node, String path, Set<String> declared,
                                          Map<String, MethodTemplate> templates) {
        List<Topology> topologies = new ArrayList<>();
        if (node == null || node.isArray() && node.isEmpty()) {
            issue(path, "is missing or empty; add at least one topology (a last one without selector is the "
                    + "default for every other node)");
            return topologies;
        }
        if (!node.isArray()) {
            issue(path, "must be a list of topologies, not " + describe(node));
            return topologies;
        }
        Map<String, Integer> names = new HashMap<>();
        int firstDefault = -1;
        for (int i = 0; i < node.size(); i++) {
            String at = index(path, i);
            ConfigNode item = node.get(i);
            if (!item.isObject()) {
                issue(at, "must be a mapping with name, selector and steps, not " + describe(item));
                continue;
            }
            checkKeys(item, at, TOPOLOGY_KEYS);
            Optional<String> name = topologyName(item.get("name"), child(at, "name"), names, i);
            Optional<NodeSelector> selector = readSelector(item.get("selector"), child(at, "selector"));
            if (selector.filter(NodeSelector::matchesAll).isPresent()) {
                if (firstDefault >= 0) {
                    issue(at, "is a second topology without selector (the first is " + index(path, firstDefault)
                            + "); only one default is allowed: give this one a selector or remove it");
                } else {
                    firstDefault = i;
                    if (i != node.size() - 1) {
                        issue(at, "has no selector, so it matches every node and hides the topologies after it;"
                                + " move it last or give it a selector");
                    }
                }
            }
            Map<FenceStep, StepSpec> steps = new EnumMap<>(FenceStep.class);
            for (FenceStep step : FenceStep.values()) {
                steps.put(step, readStep(item.get(step.code()), child(at, step.code()), step, declared, templates));
            }
            if (name.isPresent() && selector.isPresent()) {
                topologies.add(new Topology(name.get(), selector.get(), steps));
            }
        }
        return topologies;
    }

    private Optional<String> topologyName(ConfigNode node, String path, Map<String, Integer> names, int index) {
        if (node == null || !node.isTextual() || node.asText().isBlank()) {
            issue(path, (node == null ? "is missing" : "must be non-blank text")
                    + "; give every topology a name, used in logs and events");
            return Optional.empty();
        }
        String name = node.asText();
        Integer earlier = names.putIfAbsent(name, index);
        if (earlier != null) {
            issue(path, "'" + name + "' is the name of topologies[" + earlier + "] already; give each topology "
                    + "its own name");
            return Optional.empty();
        }
        return Optional.of(name);
    }

    private Optional<NodeSelector> readSelector(ConfigNode node, String path) {
        if (node == null) {
            return Optional.of(NodeSelector.ALL);
        }
        if (!node.isObject()) {
            issue(path, "must be a mapping of label names to values (matchLabels), not " + describe(node));
            return Optional.empty();
        }
        Map<String, String> labels = new LinkedHashMap<>();
        boolean[] broken = {false};
        node.properties().forEach(entry -> {
            String at = child(path, entry.getKey());
            if (entry.getValue().isNull()) {
                issue(at, "has no value; write \"\" for a label whose value is empty");
                broken[0] = true;
            } else {
                scalar(entry.getValue(), at).ifPresentOrElse(v -> labels.put(entry.getKey(), v),
                        () -> broken[0] = true);
            }
        });
        return broken[0] ? Optional.empty() : Optional.of(new NodeSelector(labels));
    }

    private StepSpec readStep(ConfigNode node, String path, FenceStep step, Set<String> declared,
                              Map<String, MethodTemplate> templates) {
        if (node == null) {
            return StepSpec.DEFAULT;
        }
        if (!node.isObject()) {
            issue(path, "must be a mapping with timeout, retries and levels, not " + describe(node)
                    + "; leave the step out to use the defaults");
            return StepSpec.DEFAULT;
        }
        checkKeys(node, path, STEP_KEYS);
        return new StepSpec(timeout(node.get("timeout"), child(path, "timeout")),
                retries(node.get("retries"), child(path, "retries")),
                levels(node.get("levels"), child(path, "levels"), step, declared, templates));
    }

    private Duration timeout(ConfigNode node, String path) {
        if (node == null) {
            return FenceConfiguration.DEFAULT_STEP_TIMEOUT;
        }
        Optional<String> text = scalar(node, path);
        if (text.isEmpty()) {
            return FenceConfiguration.DEFAULT_STEP_TIMEOUT;
        }
        try {
            Duration timeout = Durations.parse(text.get());
            if (timeout.isZero()) {
                issue(path, "is zero; give a positive duration such as 30s");
            }
            return timeout;
        } catch (IllegalArgumentException e) {
            issue(path, e.getMessage() + "; give a duration such as 30s, 500ms, 2m or PT30S");
            return FenceConfiguration.DEFAULT_STEP_TIMEOUT;
        }
    }

    private int retries(ConfigNode node, String path) {
        if (node == null) {
            return FenceConfiguration.DEFAULT_STEP_RETRIES;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            issue(path, "must be a whole number, 0 or more (0 = the step is tried once), not " + describe(node));
            return FenceConfiguration.DEFAULT_STEP_RETRIES;
        }
        int retries = node.intValue();
        if (retries < 0) {
            issue(path, "is " + retries + "; give 0 or more (0 = the step is tried once)");
            return FenceConfiguration.DEFAULT_STEP_RETRIES;
        }
        return retries;
    }

    private List<List<String>> levels(ConfigNode node, String path, FenceStep step, Set<String> declared,
                                      Map<String, MethodTemplate> templates) {
        List<List<String>> levels = new ArrayList<>();
        if (node == null) {
            return levels;
        }
        if (!node.isArray()) {
            issue(path, "must be a list of levels, each a list of template names, such as [[bmc], [pdu]]; not "
                    + describe(node));
            return levels;
        }
        for (int j = 0; j < node.size(); j++) {
            String at = index(path, j);
            ConfigNode level = node.get(j);
            if (!level.isArray()) {
                issue(at, "must be a list of template names (all must succeed), such as ["
                        + (level.isTextual() ? level.asText() : "bmc") + "] for a level of one method");
                continue;
            }
            if (level.isEmpty()) {
                issue(at, "is an empty level; a level needs at least one template (all of its methods must "
                        + "succeed): name one or remove the level");
                continue;
            }
            List<String> methods = new ArrayList<>();
            for (int k = 0; k < level.size(); k++) {
                String methodAt = index(at, k);
                ConfigNode method = level.get(k);
                if (!method.isTextual()) {
                    issue(methodAt, "must be a template name, not " + describe(method));
                } else if (!declared.contains(method.asText())) {
                    issue(methodAt, "names the unknown template '" + method.asText() + "'"
                            + hint(method.asText(), declared, "known templates"));
                } else if (methods.contains(method.asText())) {
                    issue(methodAt, "names template '" + method.asText() + "' twice in one level; name it once");
                } else {
                    methods.add(method.asText());
                    checkKind(step, templates.get(method.asText()), methodAt);
                }
            }
            levels.add(methods);
        }
        return levels;
    }

    /**
     * Power management must end with evidence that the machine is stopped, which only a
     * {@link FencingKind#POWER} agent gives; recovery runs ON, which a {@link FencingKind#SOFT} agent does not
     * have. {@code template} is null when the template itself has problems (reported where it is declared).
     */
    private void checkKind(FenceStep step, MethodTemplate template, String path) {
        if (template == null) {
            return;
        }
        FencingKind kind = template.provider().fencingKind();
        if (step == FenceStep.RECOVERY && kind == FencingKind.SOFT) {
            issue(path, "names template '" + template.name() + "' of agent '" + template.agentType() + "': soft"
                    + " fencing has no ON, and recovery runs ON: remove method '" + template.name() + "' from "
                    + FenceStep.RECOVERY.code() + " (soft fencing leaves nothing to undo)");
            return;
        }
        if (step != FenceStep.POWER_MANAGEMENT) {
            return;
        }
        String what = switch (kind) {
            case POWER -> null;
            case FABRIC -> "fabric fencing (it cuts the node off a network or storage fabric) does not stop the"
                    + " machine";
            case SOFT -> "soft fencing (it asks the node's own system to reboot) gives no evidence that the"
                    + " machine is off";
        };
        if (what != null) {
            issue(path, "names template '" + template.name() + "' of agent '" + template.agentType() + "': " + what
                    + ", so it cannot confirm the node is off: put method '" + template.name() + "' under "
                    + FenceStep.ISOLATION.code() + ", and fence the machine here with a power agent");
        }
    }

    // ---------------------------------------------------------------------------------------------------- nodes

    private Map<String, Map<String, MethodParameters>> readNodes(ConfigNode node, String path, Set<String> declared,
                                                                 Map<String, MethodTemplate> templates) {
        Map<String, Map<String, MethodParameters>> nodes = new LinkedHashMap<>();
        if (node == null) {
            return nodes;
        }
        if (!node.isObject()) {
            issue(path, "must be a mapping of node names to their parameters per template, not " + describe(node));
            return nodes;
        }
        node.properties().forEach(entry -> {
            String nodePath = child(path, entry.getKey());
            ConfigNode perTemplate = entry.getValue();
            if (!perTemplate.isObject()) {
                issue(nodePath, "must be a mapping of template names to this node's parameters, such as "
                        + "{bmc: {plug: " + entry.getKey() + "}}; not " + describe(perTemplate));
                return;
            }
            Map<String, MethodParameters> methods = new LinkedHashMap<>();
            perTemplate.properties().forEach(method -> {
                String at = child(nodePath, method.getKey());
                MethodTemplate template = templates.get(method.getKey());
                if (!declared.contains(method.getKey())) {
                    issue(at, "names the unknown template '" + method.getKey() + "'"
                            + hint(method.getKey(), declared, "known templates"));
                } else if (template != null) {
                    methods.put(method.getKey(), readParameters(method.getValue(), at, template.provider(),
                            Section.NODE));
                }
            });
            nodes.put(entry.getKey(), methods);
        });
        return nodes;
    }

    /**
     * Required agent parameters still missing after merging: for every node under {@code nodes} and every template
     * it gives parameters for; and for every template a topology uses that no node gives parameters for.
     * (Node labels are not in the file, so which topology a node will match is known only to
     * {@link FenceConfiguration#planFor}, which checks the rest.)
     */
    private void checkComplete(Map<String, MethodTemplate> templates, List<Topology> topologies,
                               Map<String, Map<String, MethodParameters>> nodes) {
        nodes.forEach((node, methods) -> methods.forEach((name, own) -> {
            MethodTemplate template = templates.get(name);
            MethodParameters merged = template.parameters().overriddenBy(own);
            for (ParameterDescriptor p : missing(template, merged)) {
                issue(child(child("nodes", node), name), "misses the required parameter '" + p.name()
                        + "' of agent '" + template.agentType() + "'" + about(p) + "; give it here"
                        + (p.secret() ? " as " + REFERENCE : "") + " or under "
                        + child(child("templates", name), p.secret() ? "secrets" : "parameters"));
            }
        }));
        Map<String, List<String>> usedBy = new LinkedHashMap<>();
        for (Topology topology : topologies) {
            topology.templateNames().forEach(t -> usedBy.computeIfAbsent(t, k -> new ArrayList<>())
                    .add(topology.name()));
        }
        usedBy.forEach((name, users) -> {
            MethodTemplate template = templates.get(name);
            if (template == null || nodes.values().stream().anyMatch(methods -> methods.containsKey(name))) {
                return;
            }
            List<ParameterDescriptor> missing = missing(template, template.parameters());
            if (!missing.isEmpty()) {
                String names = missing.stream().map(p -> "'" + p.name() + "'" + about(p))
                        .collect(Collectors.joining(", "));
                issue(child("templates", name), "misses the required parameter" + (missing.size() == 1 ? " " : "s ")
                        + names + " of agent '" + template.agentType() + "', and no node under nodes gives "
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

    // ---------------------------------------------------------------------------------------------------- shape

    private void checkKeys(ConfigNode node, String path, List<String> allowed) {
        node.fieldNames().forEachRemaining(key -> {
            if (!allowed.contains(key)) {
                issue(child(path, key), "is not a known key" + hint(key, allowed, "allowed here"));
            }
        });
    }

    private Optional<String> scalar(ConfigNode value, String path) {
        if (value.isNull()) {
            issue(path, "has no value; give one (write \"\" for empty text)");
            return Optional.empty();
        }
        if (value.isContainerNode()) {
            issue(path, "must be a single value (text, a number or true/false), not " + describe(value));
            return Optional.empty();
        }
        return Optional.of(value.asText());
    }

    private static String describe(ConfigNode node) {
        return ConfigNames.describe(node);
    }

    private void issue(String path, String message) {
        issues.add(ConfigProblem.in(source, path, message));
    }
}
