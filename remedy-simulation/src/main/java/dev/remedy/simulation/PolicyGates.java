package dev.remedy.simulation;

import dev.remedy.core.policy.AdmissionGate;
import dev.remedy.core.policy.Policy;
import dev.remedy.core.storm.PoolView;
import java.time.Instant;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One gate per policy behind the single {@link AdmissionGate} the policy controller takes; remembers which gate held
 * each node back, to classify its reason for the timeline.
 */
final class PolicyGates implements AdmissionGate {

    private final Map<Policy, AdmissionGate> gates = new IdentityHashMap<>();
    private final Map<String, AdmissionGate> lastGate = new HashMap<>();

    PolicyGates(List<Policy> policies, Function<Policy, ? extends AdmissionGate> factory) {
        Objects.requireNonNull(factory, "factory");
        for (Policy policy : policies) {
            gates.put(policy, Objects.requireNonNull(factory.apply(policy),
                    "the gate factory returned no gate for policy " + policy.name()));
        }
    }

    @Override
    public Optional<String> holdBack(String node, Policy policy, PoolView pool, Instant now) {
        AdmissionGate gate = gates.get(policy);
        lastGate.put(node, gate);
        return gate.holdBack(node, policy, pool, now);
    }

    @Override
    public void observe(Policy policy, PoolView pool, Instant now) {
        gates.get(policy).observe(policy, pool, now);
    }

    /** The kind of the reason for which {@code node} was last held back. */
    TimelineEntry.Kind kindOf(String node, String reason) {
        return lastGate.get(node) instanceof ClassifiedGate classified ? classified.kindOf(reason)
                : TimelineEntry.Kind.HELD;
    }
}
