package dev.remedy.core.policy;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.index;
import static dev.remedy.config.ConfigNames.suggestion;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.NodeSelector;
import dev.remedy.core.storm.StormSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads remedy's own policy format (see the package documentation) from a parsed document, collecting every
 * problem. One instance reads one document.
 */
final class PolicyReader extends PolicyFormatReader {

    private static final List<String> ROOT_KEYS = List.of("apiVersion", "kind", "policies");
    private static final List<String> POLICY_KEYS = List.of("name", "role", "selector", "unhealthyConditions",
            "escalation", "exclusionLabel", "healthyDelay", "pauseRequests", "storm");
    private static final List<String> CONDITION_KEYS = List.of("type", "status", "duration");
    private static final List<String> REMEDY_KEYS = List.of("name", "fence", "external", "timeout");
    private static final List<String> EXTERNAL_KEYS = List.of("apiVersion", "kind", "spec");
    private static final List<String> ROLES = List.of("worker", "control-plane");

    PolicyReader(ConfigProblems problems) {
        super(problems, ROOT_KEYS);
    }

    @Override
    List<Policy> policies(ConfigNode root) {
        ConfigNode kind = root.get("kind");
        if (kind != null && !(kind.isTextual() && kind.asText().equals(PolicyLoader.KIND))) {
            problems.add("kind", "must be " + PolicyLoader.KIND + " (or be left out) with apiVersion "
                    + PolicyLoader.API_VERSION);
        }
        List<Policy> policies = new ArrayList<>();
        Map<String, Integer> names = new HashMap<>();
        problems.list(root.get("policies"), "policies", "at least one policy").ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                readPolicy(items.get(i), index("policies", i), i, names).ifPresent(policies::add);
            }
        });
        return policies;
    }

    private Optional<Policy> readPolicy(ConfigNode node, String path, int position, Map<String, Integer> names) {
        if (problems.mappingWith(node, path, "with name, selector, unhealthyConditions and escalation", POLICY_KEYS)
                .isEmpty()) {
            return Optional.empty();
        }
        Optional<String> name = problems.text(node.get("name"), child(path, "name"),
                "the policy's name, used in events").filter(n -> unique(n, position, names, child(path, "name")));
        Optional<NodeRole> role = role(node.get("role"), child(path, "role"));
        Optional<NodeSelector> selector = selectors.matchLabels(node.get("selector"), child(path, "selector"));
        if (role.isPresent() && selector.isPresent()) {
            checkRole(role.get(), selector.get(), path);
        }
        Optional<List<UnhealthyCondition>> conditions = conditions(node.get("unhealthyConditions"),
                child(path, "unhealthyConditions"));
        Optional<List<Remedy>> escalation = escalation(node.get("escalation"), child(path, "escalation"));
        Optional<String> exclusion = node.get("exclusionLabel") == null ? Optional.of(Policy.DEFAULT_EXCLUSION_LABEL)
                : problems.text(node.get("exclusionLabel"), child(path, "exclusionLabel"), "a label key")
                        .filter(key -> selectors.labelKey(key, child(path, "exclusionLabel")));
        Optional<Duration> healthyDelay = node.get("healthyDelay") == null
                ? Optional.of(PolicyLoader.DEFAULT_HEALTHY_DELAY)
                : checks.duration(node.get("healthyDelay"), child(path, "healthyDelay"), "how long a node must stay "
                        + "healthy before its remediation ends");
        Optional<List<String>> pauses = pauseRequests(node.get("pauseRequests"), child(path, "pauseRequests"));
        Optional<StormSettings> storm = new StormSectionReader(problems, checks).read(node.get("storm"),
                child(path, "storm"));
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
            problems.add(path, "'" + name + "' is the name of policies[" + earlier + "] already; give each policy its "
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
        problems.add(path, "is " + given + "; a policy covers either worker or control-plane nodes, never both: give "
                + "role: worker (the default) or role: control-plane, and write a second policy for the other role"
                + (node.isTextual() ? suggestion(node.asText(), ROLES) : ""));
        return Optional.empty();
    }

    /** A worker policy whose selector names the control-plane label would cover no node: a role must be chosen. */
    private void checkRole(NodeRole role, NodeSelector selector, String path) {
        for (String label : List.of(NodeStatus.CONTROL_PLANE_LABEL, NodeStatus.MASTER_LABEL)) {
            if (role == NodeRole.WORKER && selector.matchLabels().containsKey(label)) {
                problems.add(child(child(path, "selector"), label), "selects control-plane nodes, but the policy's "
                        + "role is worker (the default when role is left out), so it would cover no node; set role: "
                        + "control-plane (control-plane and worker nodes are never mixed in one policy)");
            }
        }
    }

    private Optional<List<UnhealthyCondition>> conditions(ConfigNode node, String path) {
        return problems.list(node, path, "at least one unhealthy condition {type, status, duration}").flatMap(items -> {
            List<UnhealthyCondition> conditions = new ArrayList<>();
            Map<String, Integer> seen = new HashMap<>();
            boolean valid = true;
            for (int i = 0; i < items.size(); i++) {
                String at = index(path, i);
                ConfigNode item = items.get(i);
                if (problems.mappingWith(item, at, "{type, status, duration}", CONDITION_KEYS).isEmpty()) {
                    valid = false;
                    continue;
                }
                Optional<String> type = problems.text(item.get("type"), child(at, "type"),
                        "the condition type, such as Ready");
                Optional<String> status = checks.status(item.get("status"), child(at, "status"));
                Optional<Duration> duration = checks.conditionDuration(item.get("duration"), child(at, "duration"),
                        "how long the status must hold, from the condition's last transition");
                if (type.isPresent() && status.isPresent() && duration.isPresent()) {
                    Integer earlier = seen.putIfAbsent(type.get() + "=" + status.get(), i);
                    if (earlier != null) {
                        problems.add(at, "repeats " + type.get() + "=" + status.get() + " of " + index(path, earlier)
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
        return problems.list(node, path, "the remedies to try in order, each {name, fence: {} or external: {...}, "
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
        if (problems.mappingWith(node, path, "{name, fence: {} or external: {...}, timeout}", REMEDY_KEYS).isEmpty()) {
            return Optional.empty();
        }
        Optional<String> name = problems.text(node.get("name"), child(path, "name"), "the remedy's name, used in "
                + "events").filter(n -> {
                    Integer earlier = seen.putIfAbsent(n, position);
                    if (earlier != null) {
                        problems.add(child(path, "name"), "'" + n + "' names the remedy at position " + earlier
                                + " already; give each remedy of a ladder its own name");
                    }
                    return earlier == null;
                });
        Optional<Duration> timeout = checks.escalationTimeout(node.get("timeout"), child(path, "timeout"),
                "how long the remedy may run before the next one starts");
        ConfigNode fence = node.get("fence");
        ConfigNode external = node.get("external");
        if (fence != null && external != null || fence == null && external == null) {
            problems.add(path, (fence == null ? "has neither fence nor external" : "has both fence and external")
                    + "; give exactly one: fence: {} (fence the node with its fence topology) or external: "
                    + "{apiVersion, kind, spec} (a remediation object for another controller)");
            return Optional.empty();
        }
        Optional<Map<String, Object>> template = Optional.of(Map.of());
        if (fence != null) {
            problems.mapping(fence, child(path, "fence"), true, "{}: the fence flow takes its agents from the fence "
                    + "topology").ifPresent(f -> problems.checkKeys(f, child(path, "fence"), List.of()));
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
        return problems.mapping(node, path, true, "the remediation object's apiVersion, kind and spec").flatMap(ext -> {
            problems.checkKeys(ext, path, EXTERNAL_KEYS);
            Optional<String> apiVersion = problems.text(ext.get("apiVersion"), child(path, "apiVersion"),
                    "the remediation object's apiVersion, such as self-node-remediation.medik8s.io/v1alpha1");
            Optional<String> kind = problems.text(ext.get("kind"), child(path, "kind"),
                    "the remediation object's kind, such as SelfNodeRemediationTemplate");
            ConfigNode spec = ext.get("spec");
            boolean specValid = spec == null
                    || problems.mapping(spec, child(path, "spec"), false, "the object's spec").isPresent();
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
            problems.add(path, "must be a list of who paused the policy (names), [] for none; not " + describe(node));
            return Optional.empty();
        }
        List<String> pauses = new ArrayList<>();
        boolean valid = true;
        List<ConfigNode> items = node.elements();
        for (int i = 0; i < items.size(); i++) {
            Optional<String> who = problems.text(items.get(i), index(path, i), "who paused the policy");
            if (who.isPresent() && pauses.contains(who.get())) {
                problems.add(index(path, i), "repeats the pause request '" + who.get() + "'; give it once");
                valid = false;
            }
            who.ifPresent(pauses::add);
            valid &= who.isPresent();
        }
        return valid ? Optional.of(pauses) : Optional.empty();
    }
}
