package dev.remedy.core.policy;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.storm.StormSettings;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A remedy policy: the nodes it covers (a label selector, and one role: control-plane and worker nodes are never
 * mixed), the conditions that make one unhealthy (OR'ed), and the escalation ladder of remedies.
 *
 * @param name           the policy's name
 * @param selector       which nodes it covers, among those of {@code role}
 * @param role           worker or control-plane nodes
 * @param conditions     unhealthy conditions, OR'ed
 * @param escalation     the remedies, in order; a failed one escalates at once, a timed-out one is cancelled first
 * @param exclusionLabel nodes carrying this label are never remediated
 * @param healthyDelay   how long a node must stay healthy before its remediation is ended and the node released
 * @param pauseRequests  while not empty, no new remediation starts (running ones continue)
 * @param storm          the storm protection of the policy's pool (the nodes it covers)
 */
public record Policy(String name, NodeSelector selector, NodeRole role, List<UnhealthyCondition> conditions,
                     List<Remedy> escalation, String exclusionLabel, Duration healthyDelay,
                     List<String> pauseRequests, StormSettings storm) {

    /** The exclusion label used when a policy names none. */
    public static final String DEFAULT_EXCLUSION_LABEL = "remedy.dev/exclude-from-remediation";

    /** Validates the policy and copies its lists. */
    public Policy {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(selector, "selector of policy " + name);
        Objects.requireNonNull(role, "role of policy " + name);
        Objects.requireNonNull(exclusionLabel, "exclusionLabel of policy " + name);
        Objects.requireNonNull(healthyDelay, "healthyDelay of policy " + name);
        Objects.requireNonNull(storm, "storm of policy " + name);
        conditions = List.copyOf(conditions);
        escalation = List.copyOf(escalation);
        pauseRequests = List.copyOf(pauseRequests);
        if (conditions.isEmpty()) {
            throw new IllegalArgumentException("policy " + name + " needs at least one unhealthy condition");
        }
        if (escalation.isEmpty()) {
            throw new IllegalArgumentException("policy " + name + " needs at least one remedy");
        }
        if (healthyDelay.isNegative()) {
            throw new IllegalArgumentException("healthyDelay of policy " + name + " must not be negative");
        }
    }

    /** A policy with the default storm protection, {@link StormSettings#ofDefaults()}. */
    public Policy(String name, NodeSelector selector, NodeRole role, List<UnhealthyCondition> conditions,
                  List<Remedy> escalation, String exclusionLabel, Duration healthyDelay, List<String> pauseRequests) {
        this(name, selector, role, conditions, escalation, exclusionLabel, healthyDelay, pauseRequests,
                StormSettings.ofDefaults());
    }

    /** Whether the policy covers {@code node}: right role, selector matches, not excluded. */
    public boolean covers(NodeStatus node) {
        return role.of(node) && selector.matches(node.labels()) && !node.labels().containsKey(exclusionLabel);
    }

    /** The earliest time {@code node} counts as unhealthy by any condition, if it shows one. */
    public Optional<java.time.Instant> unhealthySince(NodeStatus node) {
        return conditions.stream().map(c -> c.unhealthySince(node)).flatMap(Optional::stream).min(java.util.Comparator.naturalOrder());
    }

    /** Whether new remediations are paused. */
    public boolean paused() {
        return !pauseRequests.isEmpty();
    }
}
