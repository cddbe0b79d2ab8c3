package dev.remedy.core.policy;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * One rung of a policy's escalation ladder: it runs until the node is healthy, it fails (escalate at once) or its
 * timeout passes (cancel and escalate).
 */
public sealed interface Remedy {

    /** The remedy's name, for events and the timeline. */
    String name();

    /** How long it may run before it is cancelled and the next remedy starts. */
    Duration timeout();

    /**
     * Fence the node with the engine's automaton (isolation, power management with confirmation, recovery).
     *
     * @param name    the remedy's name
     * @param timeout how long the flow may run before the ladder moves on
     */
    record Fence(String name, Duration timeout) implements Remedy {
        /** Validates the fields. */
        public Fence {
            Objects.requireNonNull(name, "name");
            requirePositive(timeout, name);
        }
    }

    /**
     * An external remediation: an object instantiated from a template, picked up by another controller (Cluster
     * API external remediation, medik8s remediators, a job as in the Node remedy design).
     *
     * @param name     the remedy's name
     * @param timeout  how long it may run before it is cancelled
     * @param template the object template: apiVersion, kind and spec
     */
    record External(String name, Duration timeout, Map<String, Object> template) implements Remedy {
        /** Validates the fields and copies the template. */
        public External {
            Objects.requireNonNull(name, "name");
            requirePositive(timeout, name);
            template = Map.copyOf(template);
        }
    }

    private static void requirePositive(Duration timeout, String name) {
        Objects.requireNonNull(timeout, "timeout of remedy " + name);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout of remedy " + name + " must be positive, was " + timeout);
        }
    }
}
