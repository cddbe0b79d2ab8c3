package dev.remedy.simulation;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.index;
import static dev.remedy.config.ConfigNames.suggestion;

import dev.remedy.config.ConfigDocuments;
import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.DocumentException;
import dev.remedy.config.SelectorReader;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a {@link Scenario} from YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}); the format is described
 * in the {@linkplain dev.remedy.simulation package documentation}. Strict: unknown keys, malformed
 * durations, unknown faults and BMC behaviours, selections of nodes that do not exist and events after the end are
 * all refused, every problem at once with its path, in one {@link ScenarioException}. Thread-safe.
 */
public final class ScenarioReader {

    private static final List<String> ROOT_KEYS = List.of("name", "nodes", "bmc", "events", "run_for", "settings");
    private static final List<String> GROUP_KEYS = List.of("names", "labels");
    private static final List<String> EVENT_KEYS = List.of("at", "fault", "clear", "bmc", "nodes");
    private static final List<String> SETTING_KEYS = List.of("tick", "boot_time", "flap_period", "remediation_delay");

    /** A reader; cheap, and reusable. */
    public ScenarioReader() {
    }

    /**
     * Reads {@code file} (UTF-8); its extension gives the format.
     *
     * @throws ScenarioException listing every problem, or saying why the file cannot be read
     */
    public Scenario read(Path file) {
        Objects.requireNonNull(file, "file");
        String source = file.toString();
        ConfigNode root = ConfigDocuments.read(file, e -> refused(source, e));
        return new Reading(source, defaultName(file)).scenario(root);
    }

    /**
     * Parses {@code text}; the extension of {@code sourceName} gives the format.
     *
     * @throws ScenarioException listing every problem
     */
    public Scenario parse(String text, String sourceName) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sourceName, "sourceName");
        ConfigNode root = ConfigDocuments.parse(text, sourceName, e -> refused(sourceName, e));
        return new Reading(sourceName, defaultName(Path.of(sourceName))).scenario(root);
    }

    private static ScenarioException refused(String source, DocumentException e) {
        return new ScenarioException(List.of(ConfigProblem.in(source, "", e.getMessage())));
    }

    private static String defaultName(Path file) {
        Path name = file.getFileName();
        String text = name == null ? "scenario" : name.toString();
        int dot = text.lastIndexOf('.');
        return dot > 0 ? text.substring(0, dot) : text;
    }

    /** One reading of one document, collecting its problems. */
    private static final class Reading {
        private final ConfigProblems problems;
        private final SelectorReader selectors;
        private final String defaultName;

        Reading(String source, String defaultName) {
            this.problems = new ConfigProblems(source, "is not a key here", "the keys are");
            this.selectors = new SelectorReader(problems);
            this.defaultName = defaultName;
        }

        Scenario scenario(ConfigNode document) {
            ConfigNode root = problems.document(document, "at least nodes (and events)",
                    "the keys " + String.join(", ", ROOT_KEYS)).orElseThrow(this::refused);
            problems.checkKeys(root, "", ROOT_KEYS);
            Scenario.Builder builder = Scenario.builder();
            text(root.get("name"), "name", "the scenario's name").ifPresentOrElse(builder::name,
                    () -> builder.name(defaultName));
            Map<String, Map<String, String>> nodes = nodes(root.get("nodes"), "nodes");
            nodes.forEach(builder::node);
            Optional<Duration> runFor = positive(root.get("run_for"), "run_for");
            runFor.ifPresent(builder::runFor);
            // The end events must come before: unknown while run_for has a problem of its own.
            Optional<Duration> end = root.get("run_for") == null ? Optional.of(Scenario.DEFAULT_DURATION) : runFor;
            if (!nodes.isEmpty()) {
                bmcs(root.get("bmc"), "bmc", nodes, builder);
                events(root.get("events"), "events", nodes, end, builder);
            }
            Optional<Duration> tick = settings(root.get("settings"), "settings", builder);
            ConfigNode settings = root.get("settings");
            boolean tickWritten = settings != null && settings.get("tick") != null;
            if ((root.get("run_for") == null || runFor.isPresent()) && (!tickWritten || tick.isPresent())) {
                Scenario.ticks(runFor.orElse(Scenario.DEFAULT_DURATION), tick.orElse(Scenario.DEFAULT_TICK))
                        .ifPresent(problem -> problems.add(tickWritten ? "settings.tick" : "run_for",
                                (tickWritten ? "" : "the default tick ") + problem));
            }
            if (!problems.isEmpty()) {
                throw refused();
            }
            try {
                return builder.build();
            } catch (IllegalArgumentException e) {
                problems.add("", e.getMessage());
                throw refused();
            }
        }

        private Map<String, Map<String, String>> nodes(ConfigNode node, String path) {
            Map<String, Map<String, String>> nodes = new LinkedHashMap<>();
            if (node == null) {
                problems.add(path, "is missing; give a number of nodes (node-0, node-1, …) or a list of groups"
                        + " {names: node-0..node-4, labels: {rack: r0}}");
            } else if (node.isIntegralNumber()) {
                int count = node.canConvertToInt() ? node.intValue() : -1;
                if (count < 1 || count > Scenario.MAX_NODES) {
                    problems.add(path, "must be 1 to " + Scenario.MAX_NODES + " nodes");
                } else {
                    for (int i = 0; i < count; i++) {
                        nodes.put("node-" + i, Map.of());
                    }
                }
            } else if (node.isArray() && !node.isEmpty()) {
                List<ConfigNode> groups = node.elements();
                for (int i = 0; i < groups.size(); i++) {
                    group(groups.get(i), index(path, i), nodes);
                }
            } else {
                problems.add(path, "must be a number of nodes or a list of groups {names: node-0..node-4, labels: "
                        + "{…}}, not " + (node.isArray() ? "an empty list" : describe(node)));
            }
            return nodes;
        }

        private void group(ConfigNode group, String path, Map<String, Map<String, String>> nodes) {
            if (problems.mappingWith(group, path, "{names: node-0..node-4, labels: {rack: r0}}", GROUP_KEYS)
                    .isEmpty()) {
                return;
            }
            // Labels with problems are reported; the group's nodes are kept, without labels, for the other checks.
            Map<String, String> labels = selectors.labels(group.get("labels"), child(path, "labels"))
                    .orElse(Map.of());
            if (group.get("names") == null) {
                problems.add(child(path, "names"), "is missing; give names or ranges, as in node-0..node-4");
                return;
            }
            Optional<String> names = text(group.get("names"), child(path, "names"), "names or ranges, as in "
                    + "node-0..node-4");
            for (String part : names.map(n -> n.split(",")).orElse(new String[0])) {
                List<String> expanded = expand(part.strip(), child(path, "names"));
                if (nodes.size() + expanded.size() > Scenario.MAX_NODES) {
                    problems.add(child(path, "names"), "'" + part.strip() + "' brings the scenario to more than "
                            + Scenario.MAX_NODES + " nodes, the most a scenario may have; give fewer nodes");
                    return;
                }
                for (String name : expanded) {
                    if (nodes.containsKey(name)) {
                        problems.add(child(path, "names"), "node '" + name + "' is already in an earlier group");
                    } else {
                        nodes.put(name, labels);
                    }
                }
            }
        }

        private List<String> expand(String part, String path) {
            try {
                return NodeSelection.expandNames(part);
            } catch (IllegalArgumentException e) {
                problems.add(path, e.getMessage());
                return List.of();
            }
        }

        private void bmcs(ConfigNode node, String path, Map<String, Map<String, String>> nodes,
                          Scenario.Builder builder) {
            if (node == null) {
                return;
            }
            if (!node.isObject()) {
                problems.add(path, "must be a mapping of node selections to BMC behaviours, as in {node-7: hangs}, "
                        + "not " + describe(node));
                return;
            }
            for (Map.Entry<String, ConfigNode> entry : node.properties()) {
                String at = child(path, entry.getKey());
                Optional<BmcBehaviour> behaviour = choice(entry.getValue(), at, BmcBehaviour.class);
                Optional<List<String>> selected = select(entry.getKey(), at, nodes);
                if (behaviour.isPresent() && selected.isPresent()) {
                    builder.bmc(entry.getKey(), behaviour.get());
                }
            }
        }

        private void events(ConfigNode node, String path, Map<String, Map<String, String>> nodes,
                            Optional<Duration> end, Scenario.Builder builder) {
            if (node == null) {
                return;
            }
            if (!node.isArray()) {
                problems.add(path, "must be a list of events {at: 30s, fault: hang, nodes: node-3}, not "
                        + describe(node));
                return;
            }
            List<ConfigNode> events = node.elements();
            for (int i = 0; i < events.size(); i++) {
                event(events.get(i), index(path, i), nodes, end).ifPresent(e -> builder.at(e.at(), e.step()));
            }
        }

        private Optional<Scenario.Event> event(ConfigNode node, String path, Map<String, Map<String, String>> nodes,
                                               Optional<Duration> end) {
            if (problems.mappingWith(node, path, "{at: 30s, fault: hang, nodes: node-3}", EVENT_KEYS).isEmpty()) {
                return Optional.empty();
            }
            Optional<Duration> at = duration(node.get("at"), child(path, "at")).filter(time -> {
                boolean late = end.filter(last -> time.compareTo(last) > 0).isPresent();
                if (late) {
                    problems.add(child(path, "at"), "is " + Durations.format(time) + ", after the end of the "
                            + "simulation (run_for " + Durations.format(end.get()) + "); give a time within run_for, "
                            + "or a longer run_for");
                }
                return !late;
            });
            if (node.get("at") == null) {
                problems.add(child(path, "at"), "is missing; give the time from the start, as in 30s or 2m");
            }
            List<String> actions = List.of("fault", "clear", "bmc").stream().filter(node::has).toList();
            if (actions.size() != 1) {
                problems.add(path, actions.isEmpty() ? "needs one of fault, clear or bmc"
                        : "has " + String.join(" and ", actions) + "; give one action per event");
                return Optional.empty();
            }
            String action = actions.get(0);
            ScenarioStep step = null;
            if (action.equals("clear")) {
                if (node.has("nodes")) {
                    problems.add(child(path, "nodes"), "does not go with clear; write clear: <nodes>");
                }
                step = selection(node.get("clear"), child(path, "clear"), nodes)
                        .map(s -> (ScenarioStep) new ScenarioStep.ClearFault(s)).orElse(null);
            } else {
                Optional<NodeSelection> selection = node.get("nodes") == null ? Optional.empty()
                        : selection(node.get("nodes"), child(path, "nodes"), nodes);
                if (node.get("nodes") == null) {
                    problems.add(child(path, "nodes"), "is missing; give the nodes " + action + " applies to");
                }
                if (action.equals("fault")) {
                    Optional<Fault> fault = choice(node.get("fault"), child(path, "fault"), Fault.class);
                    if (fault.isPresent() && selection.isPresent()) {
                        step = new ScenarioStep.StartFault(fault.get(), selection.get());
                    }
                } else {
                    Optional<BmcBehaviour> bmc = choice(node.get("bmc"), child(path, "bmc"), BmcBehaviour.class);
                    if (bmc.isPresent() && selection.isPresent()) {
                        step = new ScenarioStep.SetBmc(bmc.get(), selection.get());
                    }
                }
            }
            return at.isPresent() && step != null ? Optional.of(new Scenario.Event(at.get(), step)) : Optional.empty();
        }

        private Optional<NodeSelection> selection(ConfigNode node, String path, Map<String, Map<String, String>> nodes) {
            return text(node, path, "a node selection: all, a name, a range node-1..node-3 or a label rack=r1")
                    .flatMap(spec -> select(spec, path, nodes).map(ignored -> NodeSelection.of(spec)));
        }

        private Optional<List<String>> select(String spec, String path, Map<String, Map<String, String>> nodes) {
            try {
                return Optional.of(NodeSelection.of(spec).resolve(nodes));
            } catch (IllegalArgumentException e) {
                problems.add(path, e.getMessage());
                return Optional.empty();
            }
        }

        /** Reads the settings into {@code builder}; the tick, if one was given and is a duration. */
        private Optional<Duration> settings(ConfigNode node, String path, Scenario.Builder builder) {
            if (node == null) {
                return Optional.empty();
            }
            if (problems.mappingWith(node, path, "with " + String.join(", ", SETTING_KEYS), SETTING_KEYS).isEmpty()) {
                return Optional.empty();
            }
            Optional<Duration> tick = positive(node.get("tick"), child(path, "tick"));
            tick.ifPresent(builder::tick);
            positive(node.get("boot_time"), child(path, "boot_time")).ifPresent(builder::bootTime);
            positive(node.get("flap_period"), child(path, "flap_period")).ifPresent(builder::flapPeriod);
            positive(node.get("remediation_delay"), child(path, "remediation_delay"))
                    .ifPresent(builder::remediationDelay);
            return tick;
        }

        private <E extends Enum<E>> Optional<E> choice(ConfigNode node, String path, Class<E> type) {
            List<String> codes = Arrays.stream(type.getEnumConstants())
                    .map(e -> e.name().toLowerCase(Locale.ROOT)).toList();
            Optional<String> given = text(node, path, "one of " + String.join(", ", codes));
            if (given.isEmpty()) {
                return Optional.empty();
            }
            String code = given.get().strip().toLowerCase(Locale.ROOT);
            if (!codes.contains(code)) {
                problems.add(path, "'" + given.get() + "' is not one of " + String.join(", ", codes)
                        + suggestion(code, codes));
                return Optional.empty();
            }
            return Optional.of(Enum.valueOf(type, code.toUpperCase(Locale.ROOT)));
        }

        /**
         * A duration when given (a bare number is seconds) of at most {@link Scenario#MAX_DURATION}; empty, and a
         * problem if it is not one.
         */
        private Optional<Duration> duration(ConfigNode node, String path) {
            return node == null ? Optional.empty()
                    : problems.duration(node, path, "a duration", Scenario.MAX_DURATION);
        }

        /** {@link #duration}, and a problem if it is zero. */
        private Optional<Duration> positive(ConfigNode node, String path) {
            return duration(node, path).filter(duration -> {
                if (duration.isZero()) {
                    problems.add(path, "is zero; give a positive duration such as 30s or 5m");
                }
                return !duration.isZero();
            });
        }

        /** Text when given (numbers too); empty, and a problem if it is not text. */
        private Optional<String> text(ConfigNode node, String path, String what) {
            return node == null ? Optional.empty() : problems.text(node, path, what);
        }

        private ScenarioException refused() {
            return new ScenarioException(problems.list());
        }
    }
}
