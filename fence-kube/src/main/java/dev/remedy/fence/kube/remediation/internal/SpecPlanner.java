package dev.remedy.fence.kube.remediation.internal;

import dev.remedy.core.flow.ReleaseStrategy;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.PlanSource;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.fence.kube.remediation.NodeFenceRemediationSpec;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Durations;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the spec of a NodeFenceRemediation into the fence plan of its node: a FenceAgentsRemediation agent name and
 * its parameters (shared, per node, from Secrets) into one of remedy's agents with a validated configuration, the
 * retries and timeouts into the power step's budget; or, without an agent, the operator's fence topology. Every
 * problem is listed, and no message holds a parameter's value.
 */
public final class SpecPlanner {

    /** FenceAgentsRemediation's default retry count. */
    public static final int DEFAULT_RETRY_COUNT = 5;
    /** FenceAgentsRemediation's default pause between attempts. */
    public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofSeconds(5);
    /** FenceAgentsRemediation's default budget of one attempt. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** The budget of the steps without an agent (isolation and recovery are cluster actions only). */
    static final Duration CLUSTER_STEP = Duration.ofSeconds(60);

    /** ClusterLabs agents that remedy runs natively: fence_ipmilan and the names it is installed under. */
    private static final Map<String, String> NATIVE = Map.of("fence_ipmilan", "ipmi", "fence_ipmilanplus", "ipmi",
            "fence_idrac", "ipmi", "fence_ilo3", "ipmi", "fence_ilo4", "ipmi", "fence_ilo5", "ipmi", "fence_imm",
            "ipmi", "fence_redfish", "redfish");
    private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");
    private static final String NODE_NAME = "{{.NodeName}}";

    private final FenceAgentRegistry agents;
    private final PlanSource topologies;

    /** A planner choosing among {@code agents}, with {@code topologies} for specs without an agent. */
    public SpecPlanner(FenceAgentRegistry agents, PlanSource topologies) {
        this.agents = agents;
        this.topologies = topologies;
    }

    /**
     * What a spec asks for one node.
     *
     * @param plan     the plan, when there is no problem
     * @param release  the release strategy
     * @param problems what is wrong, each naming the field or parameter
     * @param agentGap whether the agent has no remedy equivalent (then {@code problems} says so)
     */
    public record Planned(Optional<NodePlan> plan, ReleaseStrategy release, List<String> problems, boolean agentGap) {
    }

    /**
     * The plan of {@code node} from {@code spec}, with {@code secretParameters} the parameters read from the spec's
     * Secrets (shared and the node's, node's winning).
     */
    public Planned plan(NodeFenceRemediationSpec spec, String node, Map<String, String> secretParameters) {
        List<String> problems = new ArrayList<>();
        ReleaseStrategy release = release(spec.getRemediationStrategy(), problems);
        int attempts = spec.getRetryCount() == null ? DEFAULT_RETRY_COUNT : spec.getRetryCount();
        if (attempts < 1) {
            problems.add("retrycount must be at least 1, was " + attempts);
        }
        Duration interval = duration("retryinterval", spec.getRetryInterval(), DEFAULT_RETRY_INTERVAL, problems);
        Duration timeout = duration("timeout", spec.getTimeout(), DEFAULT_TIMEOUT, problems);
        if (spec.getAgent() == null || spec.getAgent().isBlank()) {
            return fromTopology(spec, node, release, problems);
        }
        if (spec.getTopology() != null) {
            problems.add("spec.topology " + spec.getTopology() + " is only read without spec.agent; give one of them");
        }
        Optional<String> type = type(spec.getAgent());
        if (type.isEmpty()) {
            problems.add("fence agent " + spec.getAgent() + " has no native equivalent in remedy, and the ClusterLabs "
                    + "bridge (running fence_* programs) is not available yet; use one of " + String.join(", ",
                    new TreeMap<>(NATIVE).keySet()) + ", a remedy agent type (" + String.join(", ", agents.types())
                    + "), or no agent and a fence topology");
            return new Planned(Optional.empty(), release, problems, true);
        }
        FenceAgentProvider provider = agents.provider(type.get());
        Map<String, String> parameters = parameters(spec, node, secretParameters, provider, problems);
        AgentConfig config = provider.configure().setAll(parameters).build();
        for (ConfigProblem problem : provider.validate(config)) {
            problems.add("agent " + spec.getAgent() + " (remedy's " + type.get() + "): " + problem);
        }
        if (!problems.isEmpty()) {
            return new Planned(Optional.empty(), release, problems, false);
        }
        int retries = attempts - 1;
        Duration budget = timeout.multipliedBy(attempts).plus(interval.multipliedBy(retries));
        Map<FenceStep, StepPlan> steps = new EnumMap<>(FenceStep.class);
        steps.put(FenceStep.ISOLATION, StepPlan.none(CLUSTER_STEP));
        steps.put(FenceStep.POWER_MANAGEMENT, new StepPlan(budget, retries, List.of(List.of(
                new ResolvedMethod(spec.getAgent(), type.get(), config, provider.fencingKind())))));
        steps.put(FenceStep.RECOVERY, StepPlan.none(CLUSTER_STEP));
        return new Planned(Optional.of(new NodePlan(node, "NodeFenceRemediation", steps)), release, problems, false);
    }

    private Planned fromTopology(NodeFenceRemediationSpec spec, String node, ReleaseStrategy release,
                                 List<String> problems) {
        Optional<NodePlan> plan;
        try {
            plan = topologies.plan(node);
        } catch (RuntimeException e) {
            problems.add("the fence configuration of node " + node + " is invalid: " + e.getMessage());
            return new Planned(Optional.empty(), release, problems, false);
        }
        if (plan.isEmpty()) {
            problems.add("no agent is given and no fence topology covers node " + node + "; give spec.agent, or "
                    + "cover the node in the operator's fence configuration");
        } else if (spec.getTopology() != null && !spec.getTopology().equals(plan.get().topology())) {
            problems.add("spec.topology is " + spec.getTopology() + " but the fence configuration covers node " + node
                    + " with topology " + plan.get().topology() + "; fix one of them");
        }
        return new Planned(problems.isEmpty() ? plan : Optional.empty(), release, problems, false);
    }

    /** remedy's agent type for {@code agent}: a native mapping, or a remedy type named directly. */
    private Optional<String> type(String agent) {
        String mapped = NATIVE.get(agent.toLowerCase(Locale.ROOT));
        if (mapped != null) {
            return agents.types().contains(mapped) ? Optional.of(mapped) : Optional.empty();
        }
        return agents.types().contains(agent) ? Optional.of(agent) : Optional.empty();
    }

    private static Map<String, String> parameters(NodeFenceRemediationSpec spec, String node,
                                                  Map<String, String> secretParameters, FenceAgentProvider provider,
                                                  List<String> problems) {
        Map<String, String> merged = new LinkedHashMap<>();
        Optional.ofNullable(spec.getSharedParameters()).orElse(Map.of()).forEach((k, v) -> merged.put(key(k), v));
        Optional.ofNullable(spec.getNodeParameters()).orElse(Map.of()).forEach((k, byNode) -> {
            if (byNode != null && byNode.containsKey(node)) {
                merged.put(key(k), byNode.get(node));
            }
        });
        secretParameters.forEach((k, v) -> {
            if (merged.putIfAbsent(key(k), v) != null) {
                problems.add("parameter " + k + " is given both in a Secret and in the spec; give it once");
            }
        });
        String action = merged.remove("action");
        if (action != null && !Set.of("reboot", "off").contains(action)) {
            problems.add("parameter --action must be reboot or off (remedy powers the node off, verifies it, and powers"
                    + " it on again), was " + action);
        }
        Map<String, String> values = new LinkedHashMap<>();
        merged.forEach((k, v) -> {
            String value = v == null ? "" : v.replace(NODE_NAME, node);
            boolean flag = provider.parameters().stream().filter(p -> p.answersTo(k))
                    .map(ParameterDescriptor::type).anyMatch(ParameterType.BOOLEAN::equals);
            values.put(k, flag && value.isEmpty() ? "true" : value);
        });
        return values;
    }

    /** A ClusterLabs option as written on a command line ({@code --power-timeout}) as a parameter name. */
    private static String key(String option) {
        String key = option.startsWith("--") ? option.substring(2) : option;
        return key.replace('-', '_');
    }

    private static ReleaseStrategy release(String strategy, List<String> problems) {
        if (strategy == null || strategy.equals("ResourceDeletion")) {
            return ReleaseStrategy.DELETE_NODE;
        }
        if (strategy.equals("OutOfServiceTaint")) {
            return ReleaseStrategy.OUT_OF_SERVICE_TAINT;
        }
        problems.add("remediationStrategy must be ResourceDeletion or OutOfServiceTaint, was " + strategy);
        return ReleaseStrategy.DELETE_NODE;
    }

    /** A Go duration ({@code 5s}, {@code 1m30s}, {@code 500ms}); {@code fallback} when absent. */
    static Duration duration(String field, String text, Duration fallback, List<String> problems) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        Matcher m = GO_DURATION.matcher(text.trim());
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            total = total.plus(Durations.parse(m.group(1) + m.group(2)));
            end = m.end();
        }
        if (end == 0 || end != text.trim().length() || total.isZero()) {
            problems.add(field + " must be a positive duration such as 5s, 1m30s or 500ms, was " + text);
            return fallback;
        }
        return total;
    }
}
