package dev.remedy.core.policy;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;
import static dev.remedy.config.ConfigNames.index;
import static dev.remedy.config.ConfigNames.suggestion;

import dev.remedy.config.ConfigNode;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.topology.NodeSelector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads remedy's own policy format (see the package documentation) from a parsed document, collecting every
 * problem. One instance reads one document.
 */
final class PolicyReader {

    static final List<String> ROOT_KEYS = List.of("apiVersion", "kind", "policies");
    private static final List<String> POLICY_KEYS = List.of("name", "role", "selector", "unhealthyConditions",
            "escalation", "exclusionLabel", "healthyDelay", "pauseRequests", "storm");
    private static final List<String> CONDITION_KEYS = List.of("type", "status", "duration");
    private static final List<String> REMEDY_KEYS = List.of("name", "fence", "external", "timeout");
    private static final List<String> EXTERNAL_KEYS = List.of("apiVersion", "kind", "spec");
    private static final List<String> STORM_KEYS = List.of("minHealthy", "maxUnhealthy", "stormCooldown",
            "maxConcurrent", "oneControlPlaneAtATime", "fencesPerWindow", "podDeletionsPerWindow",
            "failureDomainLabel", "maxDomainShare", "domainMinUnhealthy", "domainShareBasis", "maxDisconnectedShare",
            "quietPeriod", "raceDelay", "nodeCooldown", "unhealthyRange");
    private static final List<String> RATE_KEYS = List.of("count", "window");
    private static final List<String> RACE_KEYS = List.of("base", "randomMax", "priority");
    private static final List<String> ROLES = List.of("worker", "control-plane");
    private static final List<String> BASES = List.of("of-domain-nodes", "of-unhealthy-nodes");

    private final PolicyIssues issues;

    PolicyReader(PolicyIssues issues) {
        this.issues = issues;
    }

    /** Reads the mapping {@code root}; empty if any problem was found (they are in the issues). */
    List<Policy> read(ConfigNode root) {
        issues.checkKeys(root, "", ROOT_KEYS);
        ConfigNode kind = root.get("kind");
        if (kind != null && !(kind.isTextual() && kind.asText().equals(PolicyLoader.KIND))) {
            issues.add("kind", "must be " + PolicyLoader.KIND + " (or be left out) with apiVersion "
                    + PolicyLoader.API_VERSION);
        }
        List<Policy> policies = new ArrayList<>();
        Map<String, Integer> names = new HashMap<>();
        issues.list(root.get("policies"), "policies", "at least one policy").ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                readPolicy(items.get(i), index("policies", i), i, names).ifPresent(policies::add);
            }
        });
        return policies;
    }

    private Optional<Policy> readPolicy(ConfigNode node, String path, int position, Map<String, Integer> names) {
        if (!node.isObject()) {
            issues.add(path, "must be a mapping with name, selector, unhealthyConditions and escalation, not "
                    + describe(node));
            return Optional.empty();
        }
        issues.checkKeys(node, path, POLICY_KEYS);
        Optional<String> name = issues.text(node.get("name"), child(path, "name"),
                "the policy's name, used in events").filter(n -> unique(n, position, names, child(path, "name")));
        Optional<NodeRole> role = role(node.get("role"), child(path, "role"));
        Optional<NodeSelector> selector = selector(node.get("selector"), child(path, "selector"));
        if (role.isPresent() && selector.isPresent()) {
            checkRole(role.get(), selector.get(), path);
        }
        Optional<List<UnhealthyCondition>> conditions = conditions(node.get("unhealthyConditions"),
                child(path, "unhealthyConditions"));
        Optional<List<Remedy>> escalation = escalation(node.get("escalation"), child(path, "escalation"));
        Optional<String> exclusion = node.get("exclusionLabel") == null ? Optional.of(Policy.DEFAULT_EXCLUSION_LABEL)
                : issues.text(node.get("exclusionLabel"), child(path, "exclusionLabel"), "a label key")
                        .filter(key -> issues.labelKey(key, child(path, "exclusionLabel")));
        Optional<Duration> healthyDelay = node.get("healthyDelay") == null
                ? Optional.of(PolicyLoader.DEFAULT_HEALTHY_DELAY)
                : issues.duration(node.get("healthyDelay"), child(path, "healthyDelay"), "how long a node must stay "
                        + "healthy before its remediation ends");
        Optional<List<String>> pauses = pauseRequests(node.get("pauseRequests"), child(path, "pauseRequests"));
        Optional<StormSettings> storm = storm(node.get("storm"), child(path, "storm"));
        if (name.isEmpty() || role.isEmpty() || selector.isEmpty() || conditions.isEmpty() || escalation.isEmpty()
                || exclusion.isEmpty() || healthyDelay.isEmpty() || pauses.isEmpty() || storm.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Policy(name.get(), selector.get(), role.get(), conditions.get(), escalation.get(),
                exclusion.get(), healthyDelay.get(), pauses.get(), storm.get()));
    }

    private boolean unique(String name, int position, Map<String, Integer> names, String path) {
        Integer earlier = names.putIfAbsent(name, position);
        if (earlier != null) {
            issues.add(path, "'" + name + "' is the name of policies[" + earlier + "] already; give each policy its "
                    + "own name");
            return false;
        }
        return true;
    }

    private Optional<NodeRole> role(ConfigNode node, String path) {
        if (node == null) {
            return Optional.of(NodeRole.WORKER);
        }
        if (node.isTextual() && ROLES.contains(node.asText())) {
            return Optional.of(node.asText().equals("worker") ? NodeRole.WORKER : NodeRole.CONTROL_PLANE);
        }
        String given = node.isTextual() ? "'" + node.asText() + "'" : describe(node);
        issues.add(path, "is " + given + "; a policy covers either worker or control-plane nodes, never both: give "
                + "role: worker (the default) or role: control-plane, and write a second policy for the other role"
                + (node.isTextual() ? suggestion(node.asText(), ROLES) : ""));
        return Optional.empty();
    }

    /** A worker policy whose selector names the control-plane label would cover no node: a role must be chosen. */
    private void checkRole(NodeRole role, NodeSelector selector, String path) {
        for (String label : List.of(NodeStatus.CONTROL_PLANE_LABEL, NodeStatus.MASTER_LABEL)) {
            if (role == NodeRole.WORKER && selector.matchLabels().containsKey(label)) {
                issues.add(child(child(path, "selector"), label), "selects control-plane nodes, but the policy's "
                        + "role is worker (the default when role is left out), so it would cover no node; set role: "
                        + "control-plane (control-plane and worker nodes are never mixed in one policy)");
            }
        }
    }

    private Optional<NodeSelector> selector(ConfigNode node, String path) {
        if (node == null) {
            return Optional.of(NodeSelector.ALL);
        }
        if (!node.isObject()) {
            issues.add(path, "must be a mapping of label keys to values (matchLabels), such as "
                    + "{node-role.kubernetes.io/worker: \"\"}, not " + describe(node));
            return Optional.empty();
        }
        Map<String, String> labels = new LinkedHashMap<>();
        boolean valid = true;
        for (Map.Entry<String, ConfigNode> entry : node.properties()) {
            String at = child(path, entry.getKey());
            ConfigNode value = entry.getValue();
            valid &= issues.labelKey(entry.getKey(), at);
            if (value.isNull() || value.isContainerNode()) {
                issues.add(at, value.isNull() ? "has no value; write \"\" for a label whose value is empty"
                        : "must be a label value, not " + describe(value));
                valid = false;
            } else if (issues.labelValue(value.asText(), at)) {
                labels.put(entry.getKey(), value.asText());
            } else {
                valid = false;
            }
        }
        return valid ? Optional.of(new NodeSelector(labels)) : Optional.empty();
    }

    private Optional<List<UnhealthyCondition>> conditions(ConfigNode node, String path) {
        return issues.list(node, path, "at least one unhealthy condition {type, status, duration}").flatMap(items -> {
            List<UnhealthyCondition> conditions = new ArrayList<>();
            Map<String, Integer> seen = new HashMap<>();
            boolean valid = true;
            for (int i = 0; i < items.size(); i++) {
                String at = index(path, i);
                ConfigNode item = items.get(i);
                if (!item.isObject()) {
                    issues.add(at, "must be a mapping {type, status, duration}, not " + describe(item));
                    valid = false;
                    continue;
                }
                issues.checkKeys(item, at, CONDITION_KEYS);
                Optional<String> type = issues.text(item.get("type"), child(at, "type"),
                        "the condition type, such as Ready");
                Optional<String> status = issues.status(item.get("status"), child(at, "status"));
                Optional<Duration> duration = issues.duration(item.get("duration"), child(at, "duration"),
                        "how long the status must hold, from the condition's last transition");
                if (type.isPresent() && status.isPresent() && duration.isPresent()) {
                    Integer earlier = seen.putIfAbsent(type.get() + "=" + status.get(), i);
                    if (earlier != null) {
                        issues.add(at, "repeats " + type.get() + "=" + status.get() + " of " + index(path, earlier)
                                + "; give each condition once");
                        valid = false;
                    } else {
                        conditions.add(new UnhealthyCondition(type.get(), status.get(), duration.get()));
                    }
                } else {
                    valid = false;
                }
            }
            return valid ? Optional.of(conditions) : Optional.empty();
        });
    }

    private Optional<List<Remedy>> escalation(ConfigNode node, String path) {
        return issues.list(node, path, "the remedies to try in order, each {name, fence: {} or external: {...}, "
                + "timeout}").flatMap(items -> {
                    List<Remedy> ladder = new ArrayList<>();
                    Map<String, Integer> seen = new HashMap<>();
                    boolean valid = true;
                    for (int i = 0; i < items.size(); i++) {
                        Optional<Remedy> remedy = remedy(items.get(i), index(path, i), i, seen);
                        remedy.ifPresent(ladder::add);
                        valid &= remedy.isPresent();
                    }
                    return valid ? Optional.of(ladder) : Optional.empty();
                });
    }

    private Optional<Remedy> remedy(ConfigNode node, String path, int position, Map<String, Integer> seen) {
        if (!node.isObject()) {
            issues.add(path, "must be a mapping {name, fence: {} or external: {...}, timeout}, not " + describe(node));
            return Optional.empty();
        }
        issues.checkKeys(node, path, REMEDY_KEYS);
        Optional<String> name = issues.text(node.get("name"), child(path, "name"), "the remedy's name, used in "
                + "events").filter(n -> {
                    Integer earlier = seen.putIfAbsent(n, position);
                    if (earlier != null) {
                        issues.add(child(path, "name"), "'" + n + "' names the remedy at position " + earlier
                                + " already; give each remedy of a ladder its own name");
                    }
                    return earlier == null;
                });
        Optional<Duration> timeout = issues.escalationTimeout(node.get("timeout"), child(path, "timeout"),
                "how long the remedy may run before the next one starts");
        ConfigNode fence = node.get("fence");
        ConfigNode external = node.get("external");
        if (fence != null && external != null || fence == null && external == null) {
            issues.add(path, (fence == null ? "has neither fence nor external" : "has both fence and external")
                    + "; give exactly one: fence: {} (fence the node with its fence topology) or external: "
                    + "{apiVersion, kind, spec} (a remediation object for another controller)");
            return Optional.empty();
        }
        Optional<Map<String, Object>> template = Optional.of(Map.of());
        if (fence != null) {
            issues.mapping(fence, child(path, "fence"), true, "{}: the fence flow takes its agents from the fence "
                    + "topology").ifPresent(f -> issues.checkKeys(f, child(path, "fence"), List.of()));
        } else {
            template = externalTemplate(external, child(path, "external"));
        }
        if (name.isEmpty() || timeout.isEmpty() || template.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(fence != null ? new Remedy.Fence(name.get(), timeout.get())
                : new Remedy.External(name.get(), timeout.get(), template.get()));
    }

    private Optional<Map<String, Object>> externalTemplate(ConfigNode node, String path) {
        return issues.mapping(node, path, true, "the remediation object's apiVersion, kind and spec").flatMap(ext -> {
            issues.checkKeys(ext, path, EXTERNAL_KEYS);
            Optional<String> apiVersion = issues.text(ext.get("apiVersion"), child(path, "apiVersion"),
                    "the remediation object's apiVersion, such as self-node-remediation.medik8s.io/v1alpha1");
            Optional<String> kind = issues.text(ext.get("kind"), child(path, "kind"),
                    "the remediation object's kind, such as SelfNodeRemediationTemplate");
            ConfigNode spec = ext.get("spec");
            boolean specValid = spec == null
                    || issues.mapping(spec, child(path, "spec"), false, "the object's spec").isPresent();
            if (apiVersion.isEmpty() || kind.isEmpty() || !specValid) {
                return Optional.empty();
            }
            Map<String, Object> template = new LinkedHashMap<>();
            template.put("apiVersion", apiVersion.get());
            template.put("kind", kind.get());
            if (spec != null) {
                template.put("spec", spec.toPlain());
            }
            return Optional.of(template);
        });
    }

    private Optional<List<String>> pauseRequests(ConfigNode node, String path) {
        if (node == null) {
            return Optional.of(List.of());
        }
        if (!node.isArray()) {
            issues.add(path, "must be a list of who paused the policy (names), [] for none; not " + describe(node));
            return Optional.empty();
        }
        List<String> pauses = new ArrayList<>();
        boolean valid = true;
        List<ConfigNode> items = node.elements();
        for (int i = 0; i < items.size(); i++) {
            Optional<String> who = issues.text(items.get(i), index(path, i), "who paused the policy");
            if (who.isPresent() && pauses.contains(who.get())) {
                issues.add(index(path, i), "repeats the pause request '" + who.get() + "'; give it once");
                valid = false;
            }
            who.ifPresent(pauses::add);
            valid &= who.isPresent();
        }
        return valid ? Optional.of(pauses) : Optional.empty();
    }

    // ------------------------------------------------------------------------------------------------------ storm

    private Optional<StormSettings> storm(ConfigNode node, String path) {
        if (node == null) {
            return Optional.of(StormSettings.ofDefaults());
        }
        if (!node.isObject()) {
            issues.add(path, "must be a mapping of storm settings (leave it out for the defaults), not "
                    + describe(node));
            return Optional.empty();
        }
        issues.checkKeys(node, path, STORM_KEYS);
        StormSettings.Builder builder = StormSettings.custom();
        boolean[] valid = {true};
        if (node.has("minHealthy") && node.has("maxUnhealthy")) {
            issues.add(path, "sets both minHealthy and maxUnhealthy; set one of them");
            valid[0] = false;
        }
        Setting setting = new Setting(node, path, valid);
        setting.threshold("minHealthy", builder::minHealthy);
        setting.threshold("maxUnhealthy", builder::maxUnhealthy);
        setting.duration("stormCooldown", builder::stormCooldown);
        setting.count("maxConcurrent", builder::maxConcurrent);
        setting.flag("oneControlPlaneAtATime", builder::oneControlPlaneAtATime);
        setting.rate("fencesPerWindow", builder::fencesPerWindow, builder::noFenceRateLimit);
        setting.rate("podDeletionsPerWindow", builder::podDeletionsPerWindow, builder::noPodDeletionRateLimit);
        setting.label("failureDomainLabel", builder::failureDomainLabel);
        setting.share("maxDomainShare", builder::maxDomainShare);
        setting.count("domainMinUnhealthy", builder::domainMinUnhealthy);
        setting.basis("domainShareBasis", builder::domainShareBasis);
        setting.share("maxDisconnectedShare", builder::maxDisconnectedShare);
        setting.duration("quietPeriod", builder::quietPeriod);
        setting.duration("nodeCooldown", builder::nodeCooldown);
        setting.threshold("unhealthyRange", builder::unhealthyRange);
        setting.raceDelay(builder);
        if (!valid[0]) {
            return Optional.empty();
        }
        try {
            return Optional.of(builder.build());
        } catch (IllegalArgumentException | IllegalStateException e) {
            issues.add(path, e.getMessage());
            return Optional.empty();
        }
    }

    /** Reads one storm setting and hands it to the builder, turning the builder's refusal into an issue. */
    private final class Setting {
        private final ConfigNode storm;
        private final String path;
        private final boolean[] valid;

        Setting(ConfigNode storm, String path, boolean[] valid) {
            this.storm = storm;
            this.path = path;
            this.valid = valid;
        }

        private <T> void apply(String key, Optional<T> value, Consumer<T> setter) {
            if (value.isEmpty()) {
                valid[0] = false;
                return;
            }
            try {
                setter.accept(value.get());
            } catch (IllegalArgumentException | IllegalStateException e) {
                issues.add(child(path, key), e.getMessage());
                valid[0] = false;
            }
        }

        void threshold(String key, Consumer<String> setter) {
            ConfigNode node = storm.get(key);
            if (node == null) {
                return;
            }
            Optional<String> text = node.isTextual() || node.isIntegralNumber() ? Optional.of(node.asText())
                    : Optional.empty();
            if (text.isEmpty()) {
                issues.add(child(path, key), "must be a node count such as 3 or a percentage such as \"40%\", not "
                        + describe(node));
            }
            apply(key, text, setter);
        }

        void duration(String key, Consumer<Duration> setter) {
            ConfigNode node = storm.get(key);
            if (node != null) {
                apply(key, issues.duration(node, child(path, key), key), setter);
            }
        }

        void count(String key, Consumer<Integer> setter) {
            ConfigNode node = storm.get(key);
            if (node != null) {
                apply(key, whole(node, child(path, key)), setter);
            }
        }

        void flag(String key, Consumer<Boolean> setter) {
            ConfigNode node = storm.get(key);
            if (node == null) {
                return;
            }
            if (!node.isBoolean()) {
                issues.add(child(path, key), "must be true or false, not " + describe(node));
            }
            apply(key, node.isBoolean() ? Optional.of(node.booleanValue()) : Optional.empty(), setter);
        }

        void label(String key, Consumer<String> setter) {
            ConfigNode node = storm.get(key);
            if (node != null) {
                apply(key, issues.text(node, child(path, key), "a label key such as topology.kubernetes.io/rack")
                        .filter(k -> issues.labelKey(k, child(path, key))), setter);
            }
        }

        void share(String key, Consumer<Double> setter) {
            ConfigNode node = storm.get(key);
            if (node == null) {
                return;
            }
            if (!node.isNumber()) {
                issues.add(child(path, key), "must be a share above 0 and at most 1, such as 0.5 for one half; not "
                        + describe(node));
            }
            apply(key, node.isNumber() ? Optional.of(Double.parseDouble(node.asText())) : Optional.empty(), setter);
        }

        void basis(String key, Consumer<StormSettings.DomainShareBasis> setter) {
            ConfigNode node = storm.get(key);
            if (node == null) {
                return;
            }
            String given = node.isTextual() ? node.asText().toLowerCase(Locale.ROOT).replace('_', '-') : "";
            Optional<StormSettings.DomainShareBasis> basis = BASES.contains(given)
                    ? Optional.of(StormSettings.DomainShareBasis.valueOf(given.toUpperCase(Locale.ROOT)
                            .replace('-', '_')))
                    : Optional.empty();
            if (basis.isEmpty()) {
                issues.add(child(path, key), "is " + (node.isTextual() ? "'" + node.asText() + "'" : describe(node))
                        + ", not a share basis" + hint(given, BASES, "bases"));
            }
            apply(key, basis, setter);
        }

        void rate(String key, RateSetter setter, Runnable unlimited) {
            ConfigNode node = storm.get(key);
            if (node == null) {
                return;
            }
            String at = child(path, key);
            if (node.isTextual() && node.asText().equals("none")) {
                unlimited.run();
                return;
            }
            if (!node.isObject()) {
                issues.add(at, "must be {count, window} such as {count: 10, window: 10m}, or none for no limit; not "
                        + describe(node));
                valid[0] = false;
                return;
            }
            issues.checkKeys(node, at, RATE_KEYS);
            Optional<Integer> count = node.get("count") == null ? missing(child(at, "count"), "the number of events "
                    + "a window may hold") : whole(node.get("count"), child(at, "count"));
            Optional<Duration> window = issues.duration(node.get("window"), child(at, "window"),
                    "the length of the sliding window");
            apply(key, count.isPresent() && window.isPresent() ? Optional.of(0) : Optional.empty(),
                    ignored -> setter.set(count.get(), window.get()));
        }

        void raceDelay(StormSettings.Builder builder) {
            ConfigNode node = storm.get("raceDelay");
            if (node == null) {
                return;
            }
            String at = child(path, "raceDelay");
            if (!node.isObject()) {
                issues.add(at, "must be {base, randomMax, priority}, such as {base: 0s, randomMax: 5s}; not "
                        + describe(node));
                valid[0] = false;
                return;
            }
            issues.checkKeys(node, at, RACE_KEYS);
            Optional<Duration> base = optionalDuration(node.get("base"), child(at, "base"));
            Optional<Duration> randomMax = optionalDuration(node.get("randomMax"), child(at, "randomMax"));
            Optional<Duration> priority = optionalDuration(node.get("priority"), child(at, "priority"));
            apply("raceDelay", base.isPresent() && randomMax.isPresent() ? Optional.of(0) : Optional.empty(),
                    ignored -> builder.raceDelay(base.get(), randomMax.get()));
            apply("raceDelay", priority, builder::priorityDelay);
        }

        private Optional<Duration> optionalDuration(ConfigNode node, String at) {
            return node == null ? Optional.of(Duration.ZERO) : issues.duration(node, at, "a delay");
        }

        private Optional<Integer> whole(ConfigNode node, String at) {
            if (!node.isIntegralNumber() || !node.canConvertToInt()) {
                issues.add(at, "must be a whole number, 1 or more, not " + describe(node));
                return Optional.empty();
            }
            return Optional.of(node.intValue());
        }

        private <T> Optional<T> missing(String at, String what) {
            issues.add(at, "is missing; give " + what);
            return Optional.empty();
        }
    }

    /** The builder's two-argument rate setters. */
    @FunctionalInterface
    private interface RateSetter {
        void set(int count, Duration window);
    }
}
