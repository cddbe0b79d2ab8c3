package dev.remedy.core.topology;

import static dev.remedy.config.ConfigNames.child;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.PlanSource;
import dev.remedy.core.plan.ReleaseAfter;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Secret;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The fence configuration of a cluster: method templates, topologies chosen by node labels, and per-node
 * parameters. {@link #planFor} turns it into one node's {@link NodePlan}.
 *
 * <p>Made by {@link FenceConfigurationLoader}, which refuses a file with any problem, so every template names a
 * known agent, every level names known templates, and no secret is held in plain text: secrets are
 * {@link SecretRef}s until {@link #planFor} resolves them. Immutable and thread-safe; {@link #toString()} shows
 * no secret.
 */
public final class FenceConfiguration {

    /** The timeout of a step a topology does not configure, or configures without {@code timeout}. */
    public static final Duration DEFAULT_STEP_TIMEOUT = Duration.ofSeconds(60);
    /**
     * The longest timeout of a step: one day. A step that has not fenced a node in a day will not; a longer timeout
     * is a mistake, and would overflow the deadlines computed from it.
     */
    public static final Duration MAX_STEP_TIMEOUT = Duration.ofDays(1);
    /** The retries of a step a topology does not configure, or configures without {@code retries}. */
    public static final int DEFAULT_STEP_RETRIES = 0;

    private final String source;
    private final Map<String, MethodTemplate> templates;
    private final List<Topology> topologies;
    private final Map<String, Map<String, MethodParameters>> nodes;
    private final Map<String, NodeTopology> nodeTopologies;

    FenceConfiguration(String source, Map<String, MethodTemplate> templates, List<Topology> topologies,
                       Map<String, Map<String, MethodParameters>> nodes) {
        this(source, templates, topologies, nodes, Map.of());
    }

    private FenceConfiguration(String source, Map<String, MethodTemplate> templates, List<Topology> topologies,
                               Map<String, Map<String, MethodParameters>> nodes,
                               Map<String, NodeTopology> nodeTopologies) {
        this.source = Objects.requireNonNull(source, "source");
        this.templates = Collections.unmodifiableMap(new LinkedHashMap<>(templates));
        this.topologies = List.copyOf(topologies);
        Map<String, Map<String, MethodParameters>> copy = new LinkedHashMap<>();
        nodes.forEach((node, methods) -> copy.put(node, Collections.unmodifiableMap(
                new LinkedHashMap<>(methods))));
        this.nodes = Collections.unmodifiableMap(copy);
        this.nodeTopologies = Collections.unmodifiableMap(new LinkedHashMap<>(nodeTopologies));
    }

    /**
     * This configuration with the per-node fence configurations of the Node remedy design, each named
     * {@code fence-config-<node>} (a ConfigMap in the design), which replace the topologies for their node. A node's
     * configuration has these entries:
     * <ul>
     *   <li>{@code config.properties}: {@code key=value} lines with {@code isolation}, {@code power_management} and
     *       {@code recovery}, each the names of that step's methods separated by spaces, and {@code node_name},
     *       which, if given, must be the node of the name; a step left out has no method;</li>
     *   <li>{@code fence-method-<method>}, one per method: {@code template=fence-method-template-<T>} names the
     *       template {@code T} of this configuration, and every other line is a parameter of its agent that the
     *       node gives (over the template's, as under {@code nodes}); a secret parameter only as a reference on one
     *       line, such as {@code password={secret: {name: bmc-worker-1, key: password}}}.</li>
     * </ul>
     * Where the design is silent, remedy chooses:
     * <ul>
     *   <li>a step's methods are one level: all must succeed (the design's "sequence of methods"); fallback levels
     *       are written as topologies;</li>
     *   <li>the design's {@code action} line ({@code on}, {@code off} or {@code reboot}) is accepted and not given
     *       to the agent: the fence flow runs each step's actions itself (power management: OFF, confirm, ON), so
     *       methods of one step that differ only by {@code action} (the design's {@code eaton-off eaton-on}) are
     *       one method, the first named;</li>
     *   <li>each step's timeout and retries are those of the topology the node's labels match, else the defaults;
     *       the plan's topology is named after the configuration ({@code fence-config-<node>});</li>
     *   <li>lines starting with {@code #} or {@code !} are comments; any other entry is refused.</li>
     * </ul>
     * Every method is checked as the file is: unknown templates and parameters, secrets in plain text, required
     * parameters no one gives, values its agent refuses, a fabric or soft method under power management.
     *
     * @param configs each configuration's entries, by its name ({@code fence-config-<node>}), which is the
     *                {@link dev.remedy.spi.config.ConfigProblem#source()} of its problems
     * @return a configuration with these nodes' own topologies (and none of an earlier call's)
     * @throws FenceConfigurationException listing every problem of every configuration
     */
    public FenceConfiguration withNodeConfigs(Map<String, Map<String, String>> configs) {
        Objects.requireNonNull(configs, "configs");
        Map<String, NodeTopology> read = new NodeConfigReader(templates).read(configs);
        return new FenceConfiguration(source, templates, topologies, nodes, read);
    }

    /** The nodes that have a per-node configuration of {@link #withNodeConfigs}, in the order given. */
    public List<String> nodeConfigNames() {
        return List.copyOf(nodeTopologies.keySet());
    }

    /** The file (or source name) this configuration was read from. */
    public String source() {
        return source;
    }

    /** The topology names, in the order they are tried. */
    public List<String> topologyNames() {
        return topologies.stream().map(Topology::name).toList();
    }

    /** The method template names, in file order. */
    public List<String> templateNames() {
        return List.copyOf(templates.keySet());
    }

    /** The nodes that have their own parameters under {@code nodes}, in file order. */
    public List<String> nodeNames() {
        return List.copyOf(nodes.keySet());
    }

    /**
     * What is valid but weaker than it looks, one line each: an isolation level of a topology that releases after
     * power whose fabric method's isolation does not outlive a restart of its device
     * ({@link dev.remedy.spi.FenceAgentProvider#isolationPersists}, with the template's parameters): a switch reload
     * while the node is fenced re-admits it to the fabric. The loader logs them; {@code remedy check} prints them.
     */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        for (Topology topology : topologies) {
            List<List<String>> levels = topology.steps().get(FenceStep.ISOLATION).levels();
            for (int i = 0; i < levels.size(); i++) {
                for (String name : levels.get(i)) {
                    MethodTemplate template = templates.get(name);
                    if (template.provider().fencingKind() == FencingKind.FABRIC
                            && !template.provider().isolationPersists(template.plainConfig())) {
                        warnings.add(source + ": topology '" + topology.name() + "', isolation level " + (i + 1)
                                + ": template '" + name + "' (agent '" + template.agentType() + "') isolates the node"
                                + " only until its device restarts: a reload while the node is fenced re-admits it;"
                                + " use a device profile whose isolation persists");
                    }
                }
            }
        }
        return List.copyOf(warnings);
    }

    /** The name of the first topology whose selector matches {@code labels}, if any does. */
    public Optional<String> topologyFor(Map<String, String> labels) {
        return match(labels).map(Topology::name);
    }

    /**
     * The plan of {@code node}: the first topology whose selector matches {@code labels}, with every method's
     * template parameters merged with the node's own parameters for that template (the node's win), secrets read
     * through {@code secrets}, and each method's {@link AgentConfig} checked by its agent
     * ({@link dev.remedy.spi.FenceAgentProvider#validate}), secrets included. A node with a configuration of its own
     * ({@link #withNodeConfigs}) gets the plan that gives, whatever topology its labels match. Runs on the caller's
     * thread; blocks as long as {@code secrets} does.
     *
     * @param node    the node name, as under {@code nodes}
     * @param labels  the node's labels
     * @param secrets reads the secret references
     * @return the plan, or empty if no topology matches (the configuration has no default)
     * @throws FenceConfigurationException listing every problem (a secret that cannot be read, a required
     *                                     parameter still missing, a value the agent refuses), each naming node,
     *                                     template and parameter
     */
    public Optional<NodePlan> planFor(String node, Map<String, String> labels, SecretResolver secrets) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(secrets, "secrets");
        Optional<Topology> found = match(labels);
        NodeTopology nodeTopology = nodeTopologies.get(node);
        if (nodeTopology != null) {
            return Optional.of(planOf(node, nodeTopology, found, secrets));
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Topology topology = found.get();
        List<ConfigProblem> issues = new ArrayList<>();
        Map<String, ResolvedMethod> methods = new LinkedHashMap<>();
        topology.templateNames().forEach(name -> {
            MethodTemplate template = templates.get(name);
            MethodParameters own = nodes.getOrDefault(node, Map.of()).getOrDefault(name, MethodParameters.NONE);
            ResolvedMethod method = resolve(node, name, template, own, source, child(child("nodes", node), name),
                    secrets, issues);
            methods.put(name, method);
            if (topology.releaseAfter() == ReleaseAfter.ISOLATION && topology.steps().get(FenceStep.ISOLATION)
                    .levels().stream().anyMatch(level -> level.contains(name))) {
                TopologyReader.releaseProblem(template, method.config()).ifPresent(why -> issues.add(ConfigProblem.in(
                        source, child(child("topologies", topology.name()), "releaseAfter"), "node '" + node
                        + "': releaseAfter is isolation, but " + why)));
            }
        });
        if (!issues.isEmpty()) {
            throw new FenceConfigurationException(issues);
        }
        Map<FenceStep, StepPlan> steps = new EnumMap<>(FenceStep.class);
        topology.steps().forEach((step, spec) -> steps.put(step, new StepPlan(spec.timeout(), spec.retries(),
                spec.levels().stream().map(level -> level.stream().map(methods::get).toList()).toList())));
        return Optional.of(new NodePlan(node, topology.name(), steps, topology.releaseAfter()));
    }

    /** The plan of a node with its own configuration; timeouts and retries from {@code matched}'s steps. */
    private NodePlan planOf(String node, NodeTopology own, Optional<Topology> matched, SecretResolver secrets) {
        List<ConfigProblem> issues = new ArrayList<>();
        Map<String, ResolvedMethod> methods = new LinkedHashMap<>();
        own.steps().values().stream().flatMap(List::stream).distinct().forEach(name -> {
            NodeTopology.NodeMethod method = own.methods().get(name);
            methods.put(name, resolve(node, name, method.template(), method.own(), own.source(),
                    child("", NodeConfigReader.METHOD_PREFIX + name), secrets, issues));
        });
        if (!issues.isEmpty()) {
            throw new FenceConfigurationException(issues);
        }
        Map<FenceStep, StepPlan> steps = new EnumMap<>(FenceStep.class);
        own.steps().forEach((step, names) -> {
            StepSpec spec = matched.map(t -> t.steps().get(step)).orElse(StepSpec.DEFAULT);
            List<List<ResolvedMethod>> levels = names.isEmpty() ? List.of()
                    : List.of(names.stream().map(methods::get).toList());
            steps.put(step, new StepPlan(spec.timeout(), spec.retries(), levels));
        });
        return new NodePlan(node, own.source(), steps);
    }

    private Optional<Topology> match(Map<String, String> labels) {
        Objects.requireNonNull(labels, "labels");
        return topologies.stream().filter(t -> t.selector().matches(labels)).findFirst();
    }

    /**
     * Method {@code name} of {@code node}: {@code template} with the node's {@code own} parameters, written at
     * {@code nodePath} of {@code ownSource}.
     */
    private ResolvedMethod resolve(String node, String name, MethodTemplate template, MethodParameters own,
                                   String ownSource, String nodePath, SecretResolver resolver,
                                   List<ConfigProblem> issues) {
        MethodParameters merged = template.parameters().overriddenBy(own);
        String templatePath = child("templates", template.name());
        String who = "node '" + node + "', " + (name.equals(template.name()) ? "" : "method '" + name + "' of ")
                + "template '" + template.name() + "' (agent '" + template.agentType() + "')";
        AgentConfig.Builder builder = template.provider().configure();
        merged.values().forEach(builder::set);
        Set<String> unread = new HashSet<>();
        merged.secrets().forEach((parameter, ref) -> {
            String from = AgentChecks.place(parameter, template, own, nodePath);
            try {
                Secret secret = resolver.resolve(ref);
                if (secret == null) {
                    throw new RemedyException("the secret resolver found nothing for " + ref);
                }
                builder.secret(parameter, secret);
            } catch (RemedyException e) {
                unread.add(parameter);
                issues.add(ConfigProblem.in(own.gives(parameter) ? ownSource : source, from, who
                        + ": secret parameter '" + parameter + "' cannot be read: " + e.getMessage()));
            }
        });
        AgentConfig config = builder.build();
        // Plain values were checked by the agent when the file was read; what is left is what this node does not
        // give, and what the agent says of the secrets now read.
        for (ConfigProblem problem : template.provider().validate(config)) {
            if (unread.contains(problem.path())) {
                continue;
            }
            String place = AgentChecks.place(problem.path(), template, own, nodePath);
            String in = place == null || own.gives(problem.path()) ? ownSource : source;
            issues.add(ConfigProblem.in(in, place == null ? nodePath : place, who + ": parameter '"
                    + problem.path() + "' " + problem.message() + (place == null ? "; add it under " + nodePath
                    + " or under " + templatePath : "")));
        }
        return new ResolvedMethod(name, template.agentType(), config, template.provider().fencingKind());
    }

    /**
     * A {@link PlanSource} for the engine: each node's plan is built once (labels looked up, secrets resolved,
     * agent configurations validated) and then reused, so the engine's hot path reads no file and resolves no
     * secret. Build a new one after reloading the configuration.
     *
     * @param labelsOf the labels of a node (from the cluster)
     * @param secrets  how secret references are resolved
     */
    public PlanSource planSource(Function<String, Map<String, String>> labelsOf, SecretResolver secrets) {
        Map<String, Optional<NodePlan>> plans = new ConcurrentHashMap<>();
        return node -> plans.computeIfAbsent(node, n -> planFor(n, labelsOf.apply(n), secrets));
    }

    /** The source, templates (secrets as references), topologies and node parameters; never a secret value. */
    @Override
    public String toString() {
        return "FenceConfiguration[source=" + source + ", templates=" + templates.values() + ", topologies="
                + topologies + ", nodes=" + nodes + (nodeTopologies.isEmpty() ? "" : ", nodeConfigs="
                + nodeTopologies) + "]";
    }
}
