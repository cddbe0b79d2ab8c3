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
import java.util.regex.Pattern;

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
    private static final List<String> EXTERNAL_KEYS = List.of("apiVersion", "kind", "name", "namespace", "spec");
    /** A Kubernetes object name (DNS subdomain) and a namespace name (DNS label). */
    private static final Pattern OBJECT_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*"
            + "[a-z0-9])?)*");
    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern GROUP_VERSION = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?/v[0-9]+[a-z0-9]*");
    private static final List<String> ROLES = List.of("worker", "control-plane");
    private static final String TEMPLATE_SUFFIX = "Template";
    private static final int MAX_NAME = 253;
    private static final int MAX_NAMESPACE = 63;

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
                    + "{apiVersion, kind, name, namespace} (a remediation template to instantiate) or {apiVersion, "
                    + "kind, spec} (a remediation object to create as it is)");
            return Optional.empty();
        }
        Optional<Remedy.External.Source> source = Optional.empty();
        if (fence != null) {
            problems.mapping(fence, child(path, "fence"), true, "{}: the fence flow takes its agents from the fence "
                    + "topology").ifPresent(f -> problems.checkKeys(f, child(path, "fence"), List.of()));
        } else {
            source = externalSource(external, child(path, "external"));
        }
        if (name.isEmpty() || timeout.isEmpty() || fence == null && source.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(fence != null ? new Remedy.Fence(name.get(), timeout.get())
                : new Remedy.External(name.get(), timeout.get(), source.get()));
    }

    /**
     * {@code external}: with {@code name} a reference to a template ({@code apiVersion, kind, name, namespace}),
     * without it an inline object ({@code apiVersion, kind, spec}).
     */
    private Optional<Remedy.External.Source> externalSource(ConfigNode node, String path) {
        Optional<ConfigNode> mapping = problems.mapping(node, path, true, "a remediation template reference "
                + "{apiVersion, kind, name, namespace} or an inline object {apiVersion, kind, spec}");
        if (mapping.isEmpty()) {
            return Optional.empty();
        }
        ConfigNode ext = mapping.get();
        problems.checkKeys(ext, path, EXTERNAL_KEYS);
        boolean reference = ext.get("name") != null || ext.get("namespace") != null;
        if (reference && ext.get("spec") != null) {
            problems.add(child(path, "spec"), "is given with a template reference (name/namespace); a template's spec "
                    + "lives in the template object: leave spec out to instantiate the template, or leave out name and "
                    + "namespace to create this object as it is");
            return Optional.empty();
        }
        return reference ? templateRef(ext, path) : inline(ext, path).map(Remedy.External.Inline::new);
    }

    private Optional<Remedy.External.Source> templateRef(ConfigNode ext, String path) {
        Optional<String> apiVersion = problems.text(ext.get("apiVersion"), child(path, "apiVersion"),
                "the template's apiVersion, group/version, such as self-node-remediation.medik8s.io/v1alpha1")
                .filter(v -> matches(v, GROUP_VERSION, child(path, "apiVersion"), "is not group/version (such as "
                        + "self-node-remediation.medik8s.io/v1alpha1); remediation templates are custom resources"));
        Optional<String> kind = problems.text(ext.get("kind"), child(path, "kind"),
                "the template's kind, such as SelfNodeRemediationTemplate").filter(k -> {
                    boolean template = k.endsWith(TEMPLATE_SUFFIX) && k.length() > TEMPLATE_SUFFIX.length();
                    if (!template) {
                        problems.add(child(path, "kind"), "'" + k + "' does not end in " + TEMPLATE_SUFFIX + "; a "
                                + "reference names a remediation template (such as SelfNodeRemediationTemplate); to "
                                + "create a remediation object as it is, give apiVersion, kind and spec without name");
                    }
                    return template;
                });
        Optional<String> name = problems.text(ext.get("name"), child(path, "name"), "the template's name")
                .filter(n -> n.length() <= MAX_NAME && matches(n, OBJECT_NAME, child(path, "name"),
                        "is not a Kubernetes object name (lower-case letters, digits, '-' and '.', at most "
                                + MAX_NAME + " characters)"));
        Optional<Optional<String>> namespace = ext.get("namespace") == null ? Optional.of(Optional.empty())
                : problems.text(ext.get("namespace"), child(path, "namespace"), "the template's namespace")
                        .filter(n -> n.length() <= MAX_NAMESPACE && matches(n, NAMESPACE, child(path, "namespace"),
                                "is not a namespace name (lower-case letters, digits and '-', at most "
                                        + MAX_NAMESPACE + " characters); leave it out for remedy's own namespace"))
                        .map(Optional::of);
        if (apiVersion.isEmpty() || kind.isEmpty() || name.isEmpty() || namespace.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Remedy.External.TemplateRef(apiVersion.get(), kind.get(), name.get(),
                namespace.get()));
    }

    private boolean matches(String value, Pattern pattern, String path, String problem) {
        if (!pattern.matcher(value).matches()) {
            problems.add(path, "'" + value + "' " + problem);
            return false;
        }
        return true;
    }

    private Optional<Map<String, Object>> inline(ConfigNode ext, String path) {
        Optional<String> apiVersion = problems.text(ext.get("apiVersion"), child(path, "apiVersion"),
                "the remediation object's apiVersion, such as self-node-remediation.medik8s.io/v1alpha1");
        Optional<String> kind = problems.text(ext.get("kind"), child(path, "kind"),
                "the remediation object's kind, such as SelfNodeRemediation");
        if (kind.isPresent() && kind.get().endsWith(TEMPLATE_SUFFIX)) {
            problems.add(child(path, "kind"), "'" + kind.get() + "' is a template kind, but no template is named; "
                    + "give name (and namespace) to instantiate the template " + kind.get() + ", or give the "
                    + "remediation object's own kind to create it as it is");
            kind = Optional.empty();
        }
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
