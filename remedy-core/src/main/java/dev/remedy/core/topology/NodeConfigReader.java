package dev.remedy.core.topology;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.hint;

import dev.remedy.config.ConfigDocuments;
import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.DocumentException;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.ParameterDescriptor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Reads the Node remedy design's per-node fence configurations (see
 * {@link FenceConfiguration#withNodeConfigs}) against the templates of a fence configuration, collecting every
 * problem of every one. One instance reads one set.
 */
final class NodeConfigReader {

    /** The prefix of a per-node configuration's name: {@code fence-config-<node>}. */
    static final String CONFIG_PREFIX = "fence-config-";
    /** The entry that names the node and its methods per step. */
    static final String CONFIG_ENTRY = "config.properties";
    /** The prefix of a method's entry: {@code fence-method-<method>}. */
    static final String METHOD_PREFIX = "fence-method-";
    /** How a method names a template {@code T} of the fence configuration: {@code fence-method-template-T}. */
    static final String TEMPLATE_PREFIX = "fence-method-template-";
    /** The fence-agents actions a method may name; the flow chooses the action of each step itself. */
    static final List<String> ACTIONS = List.of("on", "off", "reboot");

    private static final String NODE_NAME = "node_name";
    private static final List<String> CONFIG_KEYS = concat(NODE_NAME,
            Arrays.stream(FenceStep.values()).map(FenceStep::code).toList());

    private final Map<String, MethodTemplate> templates;
    private final List<ConfigProblem> problems = new ArrayList<>();

    /** A reader whose methods may name {@code templates}. */
    NodeConfigReader(Map<String, MethodTemplate> templates) {
        this.templates = templates;
    }

    /**
     * Reads {@code configs} (by name, each its entries) into each node's topology, by node name.
     *
     * @throws FenceConfigurationException listing every problem of every configuration
     */
    Map<String, NodeTopology> read(Map<String, Map<String, String>> configs) {
        Map<String, NodeTopology> nodes = new LinkedHashMap<>();
        configs.forEach((name, entries) -> read(name, entries).ifPresent(t -> nodes.put(
                name.substring(CONFIG_PREFIX.length()), t)));
        if (!problems.isEmpty()) {
            throw new FenceConfigurationException(problems);
        }
        return nodes;
    }

    private Optional<NodeTopology> read(String name, Map<String, String> entries) {
        ConfigProblems found = new ConfigProblems(name);
        try {
            if (!name.startsWith(CONFIG_PREFIX) || name.length() == CONFIG_PREFIX.length()) {
                found.add("", "is not the configuration of a node: its name must be " + CONFIG_PREFIX + "<node>");
                return Optional.empty();
            }
            String node = name.substring(CONFIG_PREFIX.length());
            Map<String, NodeTopology.NodeMethod> methods = new LinkedHashMap<>();
            entries.forEach((key, text) -> {
                if (key.startsWith(METHOD_PREFIX) && key.length() > METHOD_PREFIX.length()) {
                    method(key.substring(METHOD_PREFIX.length()), text, child("", key), found)
                            .ifPresent(m -> methods.put(m.name(), m));
                } else if (!key.equals(CONFIG_ENTRY)) {
                    found.add(child("", key), "is neither " + CONFIG_ENTRY + " nor a method " + METHOD_PREFIX
                            + "<method>; rename or remove it");
                }
            });
            String config = entries.get(CONFIG_ENTRY);
            if (config == null) {
                found.add("", "has no entry " + CONFIG_ENTRY + "; give it, with the methods of each step, such as "
                        + "power_management=bmc and an entry " + METHOD_PREFIX + "bmc");
                return Optional.empty();
            }
            Map<FenceStep, List<String>> steps = steps(node, config, child("", CONFIG_ENTRY), entries, methods,
                    found);
            return found.isEmpty() ? Optional.of(new NodeTopology(name, steps, methods)) : Optional.empty();
        } finally {
            problems.addAll(found.list());
        }
    }

    /** The methods of each step, one level each; a method of a step that differs only by its action is one. */
    private Map<FenceStep, List<String>> steps(String node, String text, String path, Map<String, String> entries,
                                               Map<String, NodeTopology.NodeMethod> methods, ConfigProblems found) {
        Map<String, String> properties = properties(text, path, found, CONFIG_KEYS::contains, CONFIG_KEYS);
        String named = properties.get(NODE_NAME);
        if (named != null && !named.equals(node)) {
            found.add(child(path, NODE_NAME), "is '" + named + "', but this configuration is named for node '" + node
                    + "'; name the ConfigMap " + CONFIG_PREFIX + named + " or correct " + NODE_NAME);
        }
        Map<FenceStep, List<String>> steps = new EnumMap<>(FenceStep.class);
        TopologyReader kinds = new TopologyReader(found, templates.keySet(), templates);
        for (FenceStep step : FenceStep.values()) {
            String list = properties.get(step.code());
            List<String> level = new ArrayList<>();
            Map<String, String> devices = new HashMap<>();
            for (String method : list == null || list.isBlank() ? new String[0] : list.trim().split("\\s+")) {
                String at = child(path, step.code());
                NodeTopology.NodeMethod known = methods.get(method);
                if (!entries.containsKey(METHOD_PREFIX + method)) {
                    found.add(at, "names the method '" + method + "', which has no entry " + METHOD_PREFIX + method
                            + hint(method, entries.keySet().stream().filter(k -> k.startsWith(METHOD_PREFIX))
                            .map(k -> k.substring(METHOD_PREFIX.length())).sorted().toList(), "methods"));
                } else if (known != null) {
                    // off and on of one device (the design's eaton-off eaton-on) are one method: the flow runs
                    // OFF, confirms it, and runs ON itself.
                    String device = known.template().name() + "\n" + known.own();
                    String earlier = devices.putIfAbsent(device, method);
                    if (earlier == null) {
                        level.add(method);
                        kinds.checkKind(step, known.template(), at);
                    } else if (earlier.equals(method)) {
                        found.add(at, "names the method '" + method + "' twice; name it once");
                    }
                }
            }
            steps.put(step, level);
        }
        return steps;
    }

    private Optional<NodeTopology.NodeMethod> method(String name, String text, String path, ConfigProblems found) {
        Map<String, String> properties = properties(text, path, found, key -> true, List.of());
        String template = properties.remove("template");
        String action = properties.remove("action");
        if (action != null && !ACTIONS.contains(action)) {
            found.add(child(path, "action"), "is '" + action + "'; give one of " + String.join(", ", ACTIONS)
                    + " (the fence flow runs OFF, STATUS and ON of each step itself)");
        }
        if (template == null) {
            found.add(path, "names no template; give template=" + TEMPLATE_PREFIX + "<template>, a template of the "
                    + "fence configuration");
            return Optional.empty();
        }
        String templatePath = child(path, "template");
        if (!template.startsWith(TEMPLATE_PREFIX)) {
            found.add(templatePath, "is '" + template + "'; a template is named " + TEMPLATE_PREFIX + "<template>, "
                    + "such as " + TEMPLATE_PREFIX + templates.keySet().stream().findFirst().orElse("bmc"));
            return Optional.empty();
        }
        MethodTemplate named = templates.get(template.substring(TEMPLATE_PREFIX.length()));
        if (named == null) {
            found.add(templatePath, "names the unknown template '" + template.substring(TEMPLATE_PREFIX.length())
                    + "'" + hint(template.substring(TEMPLATE_PREFIX.length()), templates.keySet(),
                    "templates of the fence configuration"));
            return Optional.empty();
        }
        Optional<ConfigNode> parameters = parameters(properties, path, found);
        if (parameters.isEmpty()) {
            return Optional.empty();
        }
        MethodParameters own = new ParameterReader(found).read(parameters.get(), path, named.provider(),
                ParameterReader.Section.NODE);
        MethodParameters merged = named.parameters().overriddenBy(own);
        List<ParameterDescriptor> missing = named.provider().parameters().stream()
                .filter(p -> p.required() && !merged.gives(p.name())).toList();
        missing.forEach(p -> found.add(path, "misses the required parameter '" + p.name() + "' of agent '"
                + named.agentType() + "'; give it here" + (p.secret() ? " as " + ParameterReader.REFERENCE : "")
                + " or in template '" + named.name() + "'"));
        if (missing.isEmpty()) {
            new AgentChecks(found).check(named, own, path);
        }
        return Optional.of(new NodeTopology.NodeMethod(name, named, own));
    }

    /**
     * The parameters as a document: plain values as text, and a value written as a mapping ({@code {env: VAR}},
     * {@code {secret: {name: N, key: K}}}) as that mapping, for {@link ParameterReader}. A mapping that does not
     * parse is reported without its text, which may be the secret itself.
     */
    private static Optional<ConfigNode> parameters(Map<String, String> properties, String path,
                                                   ConfigProblems found) {
        StringBuilder document = new StringBuilder("{");
        boolean valid = true;
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            String value = entry.getValue();
            if (value.startsWith("{")) {
                if (!isMapping(value)) {
                    found.add(child(path, entry.getKey()), "starts with '{' but is not a reference such as "
                            + ParameterReader.REFERENCE + " on one line (not shown, in case it is the secret itself)");
                    valid = false;
                    continue;
                }
            } else {
                value = quote(value);
            }
            document.append(document.length() > 1 ? ", " : "").append(quote(entry.getKey())).append(": ")
                    .append(value);
        }
        if (!valid) {
            return Optional.empty();
        }
        try {
            return Optional.of(ConfigDocuments.parse(document.append("}").toString(), "parameters.yaml"));
        } catch (DocumentException e) {
            // Not its message: it could quote a value.
            found.add(path, "cannot be read as parameters (a value is too long or malformed); give one key=value per "
                    + "line, values under " + ConfigDocuments.MAX_VALUE_LENGTH + " characters");
            return Optional.empty();
        }
    }

    /** Whether {@code value} is one YAML flow mapping and nothing else. */
    private static boolean isMapping(String value) {
        try {
            ConfigNode node = ConfigDocuments.parse("{\"v\": " + value + "}", "value.yaml");
            return node.isObject() && node.keys().equals(List.of("v")) && node.get("v").isObject();
        } catch (DocumentException e) {
            return false;
        }
    }

    /** {@code text} as a double-quoted YAML (and JSON) string. */
    private static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    /**
     * The {@code key=value} lines of {@code text}, in order: blank lines and lines starting with {@code #} or
     * {@code !} are comments; keys and values are trimmed. A line without {@code =}, an empty key, a key given twice
     * and a key {@code allowed} refuses are reported (a line is never quoted: it may hold a secret).
     */
    static Map<String, String> properties(String text, String path, ConfigProblems found,
                                          Predicate<String> allowed, List<String> known) {
        Map<String, String> properties = new LinkedHashMap<>();
        String[] lines = text.split("\\r?\\n|\\r", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("!")) {
                continue;
            }
            int equals = line.indexOf('=');
            String key = equals < 0 ? "" : line.substring(0, equals).strip();
            if (key.isEmpty()) {
                found.add(path, "line " + (i + 1) + " is not key=value (not shown, in case it holds a secret); write "
                        + "one property per line, such as plug=2");
                continue;
            }
            String at = child(path, key);
            if (!allowed.test(key)) {
                found.add(at, "is not a key here" + hint(key, known, "keys"));
            } else if (properties.putIfAbsent(key, line.substring(equals + 1).strip()) != null) {
                found.add(at, "is given twice (line " + (i + 1) + " again); give it once");
            }
        }
        return properties;
    }

    private static List<String> concat(String first, List<String> rest) {
        return Stream.concat(Stream.of(first), rest.stream()).toList();
    }
}
