package dev.remedy.core.policy;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The policies read from one file, in document order (a node belongs to the first policy that covers it).
 *
 * @param source   the file (or source name) they were read from
 * @param policies the policies, in order, with distinct names
 */
public record PolicySet(String source, List<Policy> policies) {

    /** Validates that names are distinct and copies the list. */
    public PolicySet {
        Objects.requireNonNull(source, "source");
        policies = List.copyOf(policies);
        Set<String> names = new HashSet<>();
        for (Policy policy : policies) {
            if (!names.add(policy.name())) {
                throw new IllegalArgumentException("policy name '" + policy.name() + "' is used twice in " + source
                        + "; give each policy its own name");
            }
        }
    }

    /** The policies' names, in order. */
    public List<String> names() {
        return policies.stream().map(Policy::name).toList();
    }

    /** The policy named {@code name}, if there is one. */
    public Optional<Policy> policy(String name) {
        Objects.requireNonNull(name, "name");
        return policies.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The first policy that {@linkplain Policy#covers covers} {@code node}, if any. */
    public Optional<Policy> policyFor(NodeStatus node) {
        Objects.requireNonNull(node, "node");
        return policies.stream().filter(p -> p.covers(node)).findFirst();
    }
}
