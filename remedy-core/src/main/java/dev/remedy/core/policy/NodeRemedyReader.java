package dev.remedy.core.policy;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;
import static dev.remedy.config.ConfigNames.index;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.NodeSelector;
import dev.remedy.core.storm.StormSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the Node remedy {@code Configuration} ({@code apiVersion: node-remedy/v1alpha}) from a parsed document
 * and converts each of its threshold configurations into one worker {@link Policy}, collecting every problem.
 * The conversion rules are in the package documentation. One instance reads one document.
 */
final class NodeRemedyReader extends PolicyFormatReader {

    private static final List<String> ROOT_KEYS = List.of("apiVersion", "kind", "nodeSelector", "thresholdConfigs",
            "remedyConfigs");
    private static final List<String> THRESHOLD_KEYS = List.of("nodeConditionType", "nodeConditionStatus",
            "nodeConditionPeriod", "remedy1", "remedy2", "remedy3", "recovery");
    private static final Pattern REMEDY_KEY = Pattern.compile("remedy([1-9][0-9]{0,2})");
    private static final String CLEAN = "clean-resource";
    /** The original design's spelling, accepted as written. */
    private static final String CLEAN_TYPO = "clean-resourece";
    private static final List<String> RUNG_KEYS = List.of("name", "period", CLEAN, CLEAN_TYPO);
    private static final List<String> RECOVERY_KEYS = List.of("name");
    private static final List<String> REMEDY_CONFIG_KEYS = List.of("name", "podTemplate");
    private static final List<String> POD_TEMPLATE_KEYS = List.of("metadata", "spec");

    /** One rung as written: a reference to a remedy by name, with its options. */
    private record Rung(String name, Duration timeout, Optional<Boolean> clean, String path) {
    }

    /** One threshold configuration as written, before its remedies are resolved. */
    private record Threshold(UnhealthyCondition condition, List<Rung> ladder) {
    }

    NodeRemedyReader(ConfigProblems problems) {
        super(problems, ROOT_KEYS);
    }

    @Override
    List<Policy> policies(ConfigNode root) {
        ConfigNode kind = root.get("kind");
        if (kind == null || !kind.isTextual() || !kind.asText().equals(PolicyLoader.NODE_REMEDY_KIND)) {
            problems.add("kind", (kind == null ? "is missing" : "is not " + PolicyLoader.NODE_REMEDY_KIND)
                    + "; a Node remedy document with apiVersion " + PolicyLoader.NODE_REMEDY_API_VERSION
                    + " has kind: " + PolicyLoader.NODE_REMEDY_KIND);
        }
        Optional<NodeSelector> selector = selector(root.get("nodeSelector"), "nodeSelector");
        Set<String> declared = declaredRemedies(root.get("remedyConfigs"));
        List<Threshold> thresholds = new ArrayList<>();
        problems.list(root.get("thresholdConfigs"), "thresholdConfigs", "at least one threshold configuration "
                + "{nodeConditionType, nodeConditionStatus, nodeConditionPeriod, remedy1, …, recovery}")
                .ifPresent(items -> {
                    Map<String, Integer> seen = new HashMap<>();
                    for (int i = 0; i < items.size(); i++) {
                        threshold(items.get(i), index("thresholdConfigs", i), declared, seen)
                                .ifPresent(thresholds::add);
                    }
                });
        Map<String, Map<String, Object>> podTemplates = remedyConfigs(root.get("remedyConfigs"), "remedyConfigs");
        if (!problems.isEmpty() || selector.isEmpty()) {
            return List.of();
        }
        return thresholds.stream().map(t -> policy(t, selector.get(), podTemplates)).toList();
    }

    private static Policy policy(Threshold threshold, NodeSelector selector,
                                 Map<String, Map<String, Object>> podTemplates) {
        UnhealthyCondition condition = threshold.condition();
        List<Remedy> ladder = threshold.ladder().stream().map(rung -> {
            Map<String, Object> podTemplate = podTemplates.get(rung.name());
            return podTemplate == null ? (Remedy) new Remedy.Fence(rung.name(), rung.timeout())
                    : new Remedy.External(rung.name(), rung.timeout(), job(podTemplate,
                            rung.clean().orElse(false)));
        }).toList();
        return new Policy(PolicyLoader.NODE_REMEDY_POLICY_PREFIX + condition.type() + "=" + condition.status(),
                selector, NodeRole.WORKER, List.of(condition), ladder, Policy.DEFAULT_EXCLUSION_LABEL,
                PolicyLoader.DEFAULT_HEALTHY_DELAY, List.of(), StormSettings.ofDefaults());
    }

    /** A Job running the pod template; {@code clean} adds the release-workloads annotation. */
    private static Map<String, Object> job(Map<String, Object> podTemplate, boolean clean) {
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("apiVersion", "batch/v1");
        job.put("kind", "Job");
        if (clean) {
            job.put("metadata", Map.of("annotations", Map.of(PolicyLoader.RELEASE_WORKLOADS_ANNOTATION, "true")));
        }
        job.put("spec", Map.of("template", podTemplate));
        return job;
    }

    // ---------------------------------------------------------------------------------------------- selector

    /** The design's {@code nodeSelector}, equality text; control-plane nodes are never selected. */
    private Optional<NodeSelector> selector(ConfigNode node, String path) {
        return selectors.equalities(node, path).filter(selector -> {
            boolean workers = true;
            for (String label : List.of(NodeStatus.CONTROL_PLANE_LABEL, NodeStatus.MASTER_LABEL)) {
                if (selector.matchLabels().containsKey(label)) {
                    problems.add(path, "selects control-plane nodes, but a Node remedy configuration covers worker "
                            + "nodes only (control-plane and worker nodes are never mixed); write a policy in remedy's "
                            + "format with role: control-plane");
                    workers = false;
                }
            }
            return workers;
        });
    }

    // -------------------------------------------------------------------------------------------- thresholds

    private Optional<Threshold> threshold(ConfigNode node, String path, Set<String> declared,
                                          Map<String, Integer> seen) {
        if (!node.isObject()) {
            problems.add(path, "must be a mapping {nodeConditionType, nodeConditionStatus, nodeConditionPeriod, "
                    + "remedy1, …, recovery}, not " + describe(node));
            return Optional.empty();
        }
        problems.checkKeys(node, path, key -> THRESHOLD_KEYS.contains(key) || REMEDY_KEY.matcher(key).matches(),
                THRESHOLD_KEYS);
        Optional<String> type = problems.text(node.get("nodeConditionType"), child(path, "nodeConditionType"),
                "the node condition type to track, such as Ready");
        Optional<String> status = checks.status(node.get("nodeConditionStatus"), child(path, "nodeConditionStatus"));
        Optional<Duration> period = checks.conditionDuration(node.get("nodeConditionPeriod"),
                child(path, "nodeConditionPeriod"), "how long the status must hold before remedy1 starts");
        boolean valid = type.isPresent() && status.isPresent() && period.isPresent();
        if (valid) {
            String tracked = type.get() + "=" + status.get();
            Integer earlier = seen.putIfAbsent(tracked, seen.size());
            if (earlier != null) {
                problems.add(child(path, "nodeConditionType"), "tracks " + tracked + " a second time (policy "
                        + PolicyLoader.NODE_REMEDY_POLICY_PREFIX + tracked + " exists already); track each condition"
                        + " once");
                valid = false;
            }
        }
        Optional<List<Rung>> ladder = ladder(node, path, declared);
        recovery(node.get("recovery"), child(path, "recovery"), declared);
        if (!valid || ladder.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Threshold(new UnhealthyCondition(type.get(), status.get(), period.get()),
                ladder.get()));
    }

    /** remedy1, remedy2, … in number order, without gaps. */
    private Optional<List<Rung>> ladder(ConfigNode node, String path, Set<String> declared) {
        Map<Integer, String> keys = new TreeMap<>();
        for (String key : node.keys()) {
            Matcher m = REMEDY_KEY.matcher(key);
            if (m.matches()) {
                keys.put(Integer.parseInt(m.group(1)), key);
            }
        }
        if (keys.isEmpty()) {
            problems.add(child(path, "remedy1"), "is missing; give the first remedy to run, such as "
                    + "remedy1: [{name: repair}, {period: 3m}]");
            return Optional.empty();
        }
        boolean valid = true;
        int expected = 1;
        for (int number : keys.keySet()) {
            if (number != expected) {
                problems.add(child(path, keys.get(number)), "comes without remedy" + expected + "; number the remedies "
                        + "remedy1, remedy2, … without gaps");
                valid = false;
                break;
            }
            expected++;
        }
        List<Rung> ladder = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String key : keys.values()) {
            Optional<Rung> rung = rung(node.get(key), child(path, key), declared);
            if (rung.isPresent() && !names.add(rung.get().name())) {
                problems.add(child(rung.get().path(), "name"), "names '" + rung.get().name() + "' a second time in this"
                        + " ladder; each remedy of a ladder is named once (its name tells the events apart)");
                valid = false;
            }
            rung.ifPresent(ladder::add);
            valid &= rung.isPresent();
        }
        return valid ? Optional.of(ladder) : Optional.empty();
    }

    /**
     * The options of a rung: a list of mappings (the original's {@code - name: repair}, {@code - period: 3m}) or one
     * mapping; each key given once.
     */
    private Optional<Map<String, Map.Entry<String, ConfigNode>>> options(ConfigNode node, String path,
                                                                       List<String> allowed, String example) {
        List<Map.Entry<String, ConfigNode>> items = new ArrayList<>();
        if (node != null && node.isObject()) {
            items.add(Map.entry(path, node));
        } else if (node != null && node.isArray() && !node.isEmpty()) {
            List<ConfigNode> elements = node.elements();
            for (int i = 0; i < elements.size(); i++) {
                items.add(Map.entry(index(path, i), elements.get(i)));
            }
        } else {
            problems.add(path, (node == null || node.isNull() || node.isArray() ? "is empty" : "must be a list, not "
                    + describe(node)) + "; give " + example);
            return Optional.empty();
        }
        Map<String, Map.Entry<String, ConfigNode>> options = new LinkedHashMap<>();
        boolean valid = true;
        for (Map.Entry<String, ConfigNode> item : items) {
            String at = item.getKey();
            if (!item.getValue().isObject()) {
                problems.add(at, "must be a mapping such as name: repair, not " + describe(item.getValue()));
                valid = false;
                continue;
            }
            problems.checkKeys(item.getValue(), at, allowed);
            for (Map.Entry<String, ConfigNode> option : item.getValue().properties()) {
                String key = option.getKey().equals(CLEAN_TYPO) ? CLEAN : option.getKey();
                if (!allowed.contains(option.getKey())) {
                    valid = false;
                } else if (options.containsKey(key)) {
                    problems.add(child(at, option.getKey()), "gives " + key + " a second time (first at "
                            + options.get(key).getKey() + "); give it once");
                    valid = false;
                } else {
                    options.put(key, Map.entry(child(at, option.getKey()), option.getValue()));
                }
            }
        }
        return valid ? Optional.of(options) : Optional.empty();
    }

    private Optional<Rung> rung(ConfigNode node, String path, Set<String> declared) {
        Optional<Map<String, Map.Entry<String, ConfigNode>>> given = options(node, path, RUNG_KEYS,
                "[{name: repair}, {period: 3m}]");
        if (given.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Map.Entry<String, ConfigNode>> options = given.get();
        Map.Entry<String, ConfigNode> nameEntry = options.get("name");
        Optional<String> name = nameEntry == null
                ? problems.text(null, child(path, "name"), "the remedy to run: a name under remedyConfigs or a "
                        + "built-in fence (" + String.join(", ", PolicyLoader.BUILT_IN_FENCES) + ")")
                : problems.text(nameEntry.getValue(), nameEntry.getKey(), "the remedy to run");
        String namePath = nameEntry == null ? child(path, "name") : nameEntry.getKey();
        boolean known = name.map(n -> known(n, namePath, declared)).orElse(false);
        Map.Entry<String, ConfigNode> periodEntry = options.get("period");
        Optional<Duration> timeout = periodEntry == null ? Optional.of(PolicyLoader.DEFAULT_NODE_REMEDY_PERIOD)
                : checks.escalationTimeout(periodEntry.getValue(), periodEntry.getKey(), "how long the remedy may run");
        Map.Entry<String, ConfigNode> cleanEntry = options.get(CLEAN);
        Optional<Boolean> clean = cleanEntry == null ? Optional.empty()
                : problems.flag(cleanEntry.getValue(), cleanEntry.getKey());
        boolean cleanValid = cleanEntry == null || clean.isPresent();
        if (clean.isPresent() && known && !declared.contains(name.get()) && !clean.get()) {
            problems.add(cleanEntry.getKey(), "is false, but the built-in fence '" + name.get() + "' always "
                    + "releases the node's workloads once fencing is confirmed; remove it, or run a remedy "
                    + "from remedyConfigs instead");
            cleanValid = false;
        }
        if (!known || timeout.isEmpty() || !cleanValid) {
            return Optional.empty();
        }
        return Optional.of(new Rung(name.get(), timeout.get(), clean, path));
    }

    /** Whether {@code name} is a remedyConfig or a built-in fence; reports it if not. */
    private boolean known(String name, String path, Set<String> declared) {
        if (declared.contains(name) || PolicyLoader.BUILT_IN_FENCES.contains(name)) {
            return true;
        }
        if (name.equals(PolicyLoader.BUILT_IN_RECOVERY)) {
            problems.add(path, "names the built-in recovery as a remedy; give it under recovery instead: "
                    + "recovery: [{name: recovery}]");
            return false;
        }
        List<String> candidates = Stream.concat(declared.stream(), PolicyLoader.BUILT_IN_FENCES.stream()).toList();
        problems.add(path, "names the remedy '" + name + "', which remedyConfigs does not define and is not built in"
                + hint(name, candidates, "known remedies") + "; define it under remedyConfigs");
        return false;
    }

    private void recovery(ConfigNode node, String path, Set<String> declared) {
        if (node == null) {
            return;
        }
        options(node, path, RECOVERY_KEYS, "[{name: recovery}]").ifPresent(options -> {
            Map.Entry<String, ConfigNode> nameEntry = options.get("name");
            Optional<String> name = nameEntry == null
                    ? problems.text(null, child(path, "name"), PolicyLoader.BUILT_IN_RECOVERY)
                    : problems.text(nameEntry.getValue(), nameEntry.getKey(), PolicyLoader.BUILT_IN_RECOVERY);
            name.filter(n -> !n.equals(PolicyLoader.BUILT_IN_RECOVERY)).ifPresent(n -> problems.add(nameEntry.getKey(),
                    declared.contains(n)
                            ? "names the remedy '" + n + "' as recovery; a recovery job is not supported: a node is "
                                    + "recovered by the fence flow's recovery step (power on, uncordon, remove taints) "
                                    + "or by its external remediator; write name: " + PolicyLoader.BUILT_IN_RECOVERY
                                    + " or leave recovery out"
                            : "names the unknown recovery '" + n + "'" + hint(n,
                                    List.of(PolicyLoader.BUILT_IN_RECOVERY), "built in") + "; write name: "
                                    + PolicyLoader.BUILT_IN_RECOVERY + " or leave recovery out"));
        });
    }

    // ------------------------------------------------------------------------------------------ remedyConfigs

    /** The names remedyConfigs defines, read first so that rungs can be checked against them. */
    private static Set<String> declaredRemedies(ConfigNode node) {
        Set<String> names = new LinkedHashSet<>();
        if (node != null) {
            node.elements().stream().map(item -> item.get("name")).filter(n -> n != null && n.isTextual())
                    .map(ConfigNode::asText).filter(n -> !PolicyLoader.BUILT_IN_FENCES.contains(n)
                            && !n.equals(PolicyLoader.BUILT_IN_RECOVERY)).forEach(names::add);
        }
        return names;
    }

    private Map<String, Map<String, Object>> remedyConfigs(ConfigNode node, String path) {
        Map<String, Map<String, Object>> podTemplates = new LinkedHashMap<>();
        if (node == null) {
            return podTemplates;
        }
        if (!node.isArray()) {
            problems.add(path, "must be a list of remedies {name, podTemplate}, not " + describe(node));
            return podTemplates;
        }
        Map<String, String> seen = new HashMap<>();
        List<ConfigNode> items = node.elements();
        for (int i = 0; i < items.size(); i++) {
            String at = index(path, i);
            ConfigNode item = items.get(i);
            if (problems.mappingWith(item, at, "{name, podTemplate}", REMEDY_CONFIG_KEYS).isEmpty()) {
                continue;
            }
            Optional<String> name = problems.text(item.get("name"), child(at, "name"), "the remedy's name, which "
                    + "remedy1, remedy2, … refer to").filter(n -> {
                        if (PolicyLoader.BUILT_IN_FENCES.contains(n) || n.equals(PolicyLoader.BUILT_IN_RECOVERY)) {
                            problems.add(child(at, "name"), "'" + n + "' is a built-in remedy; give this one another "
                                    + "name");
                            return false;
                        }
                        String earlier = seen.putIfAbsent(n, at);
                        if (earlier != null) {
                            problems.add(child(at, "name"), "'" + n + "' is defined at " + earlier + " already; give "
                                    + "each remedy its own name");
                        }
                        return earlier == null;
                    });
            Optional<Object> podTemplate = problems.mapping(item.get("podTemplate"), child(at, "podTemplate"), true,
                    "the pod template of the job to run, {spec: {containers: [...], restartPolicy: Never}}")
                    .flatMap(template -> {
                        String templatePath = child(at, "podTemplate");
                        problems.checkKeys(template, templatePath, POD_TEMPLATE_KEYS);
                        boolean specValid = problems.mapping(template.get("spec"), child(templatePath, "spec"), true,
                                "the pod spec, {containers: [...], restartPolicy: Never}").isPresent();
                        ConfigNode metadata = template.get("metadata");
                        boolean metadataValid = metadata == null || problems.mapping(metadata,
                                child(templatePath, "metadata"), false, "the pod's labels and annotations").isPresent();
                        return specValid && metadataValid ? Optional.of(template.toPlain()) : Optional.empty();
                    });
            if (name.isPresent() && podTemplate.isPresent()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> template = (Map<String, Object>) podTemplate.get();
                podTemplates.put(name.get(), template);
            }
        }
        return podTemplates;
    }
}
