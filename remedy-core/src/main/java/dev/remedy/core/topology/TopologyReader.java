package dev.remedy.core.topology;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;
import static dev.remedy.config.ConfigNames.index;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.NodeSelector;
import dev.remedy.config.SelectorReader;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.ReleaseAfter;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads the {@code topologies} of a fence configuration: each a name, a node selector (none for the one default,
 * which comes last) and per step its timeout, retries and levels of template names. A level names each template
 * once, and only templates whose agents can do the step ({@link #checkKind}).
 */
final class TopologyReader {

    private static final List<String> TOPOLOGY_KEYS = Stream.of(Stream.of("name", "selector"),
            Arrays.stream(FenceStep.values()).map(FenceStep::code), Stream.of("releaseAfter"))
            .flatMap(keys -> keys).toList();
    private static final List<String> STEP_KEYS = List.of("timeout", "retries", "levels");

    private final ConfigProblems problems;
    private final SelectorReader selectors;
    private final Set<String> declared;
    private final Map<String, MethodTemplate> templates;

    /**
     * A reader of topologies whose levels may name the {@code declared} templates; {@code templates} are those of
     * them that were read without problems.
     */
    TopologyReader(ConfigProblems problems, Set<String> declared, Map<String, MethodTemplate> templates) {
        this.problems = problems;
        this.selectors = new SelectorReader(problems);
        this.declared = declared;
        this.templates = templates;
    }

    /** The topologies at {@code path}, in the order they are tried. */
    List<Topology> read(ConfigNode node, String path) {
        List<Topology> topologies = new ArrayList<>();
        if (node == null || node.isArray() && node.isEmpty()) {
            problems.add(path, "is missing or empty; add at least one topology (a last one without selector is the "
                    + "default for every other node)");
            return topologies;
        }
        if (!node.isArray()) {
            problems.add(path, "must be a list of topologies, not " + describe(node));
            return topologies;
        }
        Map<String, Integer> names = new HashMap<>();
        int firstDefault = -1;
        for (int i = 0; i < node.size(); i++) {
            String at = index(path, i);
            ConfigNode item = node.get(i);
            if (problems.mappingWith(item, at, "with name, selector and steps", TOPOLOGY_KEYS).isEmpty()) {
                continue;
            }
            Optional<String> name = name(item.get("name"), child(at, "name"), names, i);
            Optional<NodeSelector> selector = selectors.matchLabels(item.get("selector"), child(at, "selector"));
            if (selector.filter(NodeSelector::matchesAll).isPresent()) {
                if (firstDefault >= 0) {
                    problems.add(at, "is a second topology without selector (the first is " + index(path, firstDefault)
                            + "); only one default is allowed: give this one a selector or remove it");
                } else {
                    firstDefault = i;
                    if (i != node.size() - 1) {
                        problems.add(at, "has no selector, so it matches every node and hides the topologies after "
                                + "it; move it last or give it a selector");
                    }
                }
            }
            Map<FenceStep, StepSpec> steps = new EnumMap<>(FenceStep.class);
            for (FenceStep step : FenceStep.values()) {
                steps.put(step, step(item.get(step.code()), child(at, step.code()), step));
            }
            ReleaseAfter releaseAfter = releaseAfter(item.get("releaseAfter"), child(at, "releaseAfter"));
            if (releaseAfter == ReleaseAfter.ISOLATION) {
                checkReleaseAfterIsolation(steps.get(FenceStep.ISOLATION), at);
            }
            if (name.isPresent() && selector.isPresent()) {
                topologies.add(new Topology(name.get(), selector.get(), steps, releaseAfter));
            }
        }
        return topologies;
    }

    private ReleaseAfter releaseAfter(ConfigNode node, String path) {
        if (node == null) {
            return ReleaseAfter.POWER;
        }
        Optional<ReleaseAfter> found = Arrays.stream(ReleaseAfter.values())
                .filter(r -> node.isTextual() && r.code().equals(node.asText())).findFirst();
        if (found.isEmpty()) {
            problems.add(path, "must be power (the default: workloads are released once the node is confirmed off) or"
                    + " isolation (released once it is cut off by isolation methods whose isolation persists), not "
                    + describe(node));
        }
        return found.orElse(ReleaseAfter.POWER);
    }

    /**
     * {@code releaseAfter: isolation} needs isolation levels whose every method reads its isolation back and keeps
     * it: power methods, and fabric methods whose agent says their isolation outlives a restart of the device (with
     * the template's parameters; each node's plan is checked again with its own).
     */
    private void checkReleaseAfterIsolation(StepSpec isolation, String at) {
        String path = child(at, "releaseAfter");
        if (isolation.levels().isEmpty()) {
            problems.add(path, "is isolation, but " + child(at, FenceStep.ISOLATION.code()) + " has no levels; add"
                    + " isolation levels of fabric methods whose isolation persists, or release after power");
            return;
        }
        isolation.levels().stream().flatMap(List::stream).distinct().map(templates::get)
                .filter(Objects::nonNull).forEach(template -> releaseProblem(template, template.plainConfig())
                        .ifPresent(why -> problems.add(path, "is isolation, but " + why)));
    }

    /**
     * Why the method of {@code template} with {@code config} cannot release workloads after isolation, or empty if
     * it can.
     */
    static Optional<String> releaseProblem(MethodTemplate template, AgentConfig config) {
        String method = "template '" + template.name() + "' (agent '" + template.agentType() + "')";
        return switch (template.provider().fencingKind()) {
            case POWER -> Optional.empty();
            case SOFT -> Optional.of(method + " is soft fencing, which cuts nothing off; remove it from isolation or "
                    + "release after power");
            case FABRIC -> template.provider().isolationPersists(config) ? Optional.empty() : Optional.of(method
                    + " isolates the node in a way that a restart of its device undoes (a switch reload would"
                    + " re-admit the node while its workloads run elsewhere); use a device profile whose isolation"
                    + " persists, or release after power");
            case SELF -> Optional.of(method + " is self fencing, which cuts nothing off; put it under "
                    + FenceStep.POWER_MANAGEMENT.code());
        };
    }

    private Optional<String> name(ConfigNode node, String path, Map<String, Integer> names, int index) {
        return problems.text(node, path, "every topology a name, used in logs and events").filter(name -> {
            Integer earlier = names.putIfAbsent(name, index);
            if (earlier != null) {
                problems.add(path, "'" + name + "' is the name of topologies[" + earlier + "] already; give each "
                        + "topology its own name");
            }
            return earlier == null;
        });
    }

    private StepSpec step(ConfigNode node, String path, FenceStep step) {
        if (node == null) {
            return StepSpec.DEFAULT;
        }
        if (!node.isObject()) {
            problems.add(path, "must be a mapping with timeout, retries and levels, not " + describe(node)
                    + "; leave the step out to use the defaults");
            return StepSpec.DEFAULT;
        }
        problems.checkKeys(node, path, STEP_KEYS);
        return new StepSpec(timeout(node.get("timeout"), child(path, "timeout")),
                retries(node.get("retries"), child(path, "retries")),
                levels(node.get("levels"), child(path, "levels"), step));
    }

    private Duration timeout(ConfigNode node, String path) {
        if (node == null) {
            return FenceConfiguration.DEFAULT_STEP_TIMEOUT;
        }
        Optional<Duration> timeout = problems.duration(node, path, "the step's timeout",
                FenceConfiguration.MAX_STEP_TIMEOUT);
        if (timeout.filter(Duration::isZero).isPresent()) {
            problems.add(path, "is zero; give a positive duration such as 30s");
        }
        return timeout.orElse(FenceConfiguration.DEFAULT_STEP_TIMEOUT);
    }

    private int retries(ConfigNode node, String path) {
        if (node == null) {
            return FenceConfiguration.DEFAULT_STEP_RETRIES;
        }
        Optional<Integer> retries = problems.wholeNumber(node, path, "0 or more (0 = the step is tried once)");
        if (retries.filter(r -> r < 0).isPresent()) {
            problems.add(path, "is " + retries.get() + "; give 0 or more (0 = the step is tried once)");
            return FenceConfiguration.DEFAULT_STEP_RETRIES;
        }
        return retries.orElse(FenceConfiguration.DEFAULT_STEP_RETRIES);
    }

    private List<List<String>> levels(ConfigNode node, String path, FenceStep step) {
        List<List<String>> levels = new ArrayList<>();
        if (node == null) {
            return levels;
        }
        if (!node.isArray()) {
            problems.add(path, "must be a list of levels, each a list of template names, such as [[bmc], [pdu]]; not "
                    + describe(node));
            return levels;
        }
        for (int j = 0; j < node.size(); j++) {
            String at = index(path, j);
            ConfigNode level = node.get(j);
            if (!level.isArray()) {
                problems.add(at, "must be a list of template names (all must succeed), such as ["
                        + (level.isTextual() ? level.asText() : "bmc") + "] for a level of one method");
                continue;
            }
            if (level.isEmpty()) {
                problems.add(at, "is an empty level; a level needs at least one template (all of its methods must "
                        + "succeed): name one or remove the level");
                continue;
            }
            List<String> methods = new ArrayList<>();
            for (int k = 0; k < level.size(); k++) {
                String methodAt = index(at, k);
                ConfigNode method = level.get(k);
                if (!method.isTextual()) {
                    problems.add(methodAt, "must be a template name, not " + describe(method));
                } else if (!declared.contains(method.asText())) {
                    problems.add(methodAt, "names the unknown template '" + method.asText() + "'"
                            + hint(method.asText(), declared, "known templates"));
                } else if (methods.contains(method.asText())) {
                    problems.add(methodAt, "names template '" + method.asText() + "' twice in one level; name it "
                            + "once");
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
     * Power management must end with evidence that the machine is stopped, which a {@link FencingKind#POWER} agent
     * gives (a {@link FencingKind#SELF} agent gives an assumption of it, and stands only there); recovery runs ON,
     * which a {@link FencingKind#SOFT} agent does not have. {@code template} is null when the template itself has
     * problems (reported where it is declared).
     */
    void checkKind(FenceStep step, MethodTemplate template, String path) {
        if (template == null) {
            return;
        }
        FencingKind kind = template.provider().fencingKind();
        if (step != FenceStep.POWER_MANAGEMENT && kind == FencingKind.SELF) {
            problems.add(path, "names template '" + template.name() + "' of agent '" + template.agentType() + "': "
                    + "self fencing (the node resets itself; its OFF is confirmed by a safe time, its ON only withdraws"
                    + " the request) neither isolates nor powers on: put method '" + template.name() + "' under "
                    + FenceStep.POWER_MANAGEMENT.code() + " only");
            return;
        }
        if (step == FenceStep.RECOVERY && kind == FencingKind.SOFT) {
            problems.add(path, "names template '" + template.name() + "' of agent '" + template.agentType() + "': "
                    + "soft fencing has no ON, and recovery runs ON: remove method '" + template.name() + "' from "
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
            case SELF -> null;
        };
        if (what != null) {
            problems.add(path, "names template '" + template.name() + "' of agent '" + template.agentType() + "': "
                    + what + ", so it cannot confirm the node is off: put method '" + template.name() + "' under "
                    + FenceStep.ISOLATION.code() + ", and fence the machine here with a power agent");
        }
    }
}
