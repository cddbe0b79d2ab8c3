package dev.remedy.core.policy;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
     * An external remediation: an object another controller acts on (Cluster API external remediation, medik8s
     * remediators, a Job as in the Node remedy design), made from a {@link Source}.
     *
     * @param name    the remedy's name
     * @param timeout how long it may run before it is cancelled
     * @param source  where the remediation object comes from: a template looked up by reference, or an inline object
     */
    record External(String name, Duration timeout, Source source) implements Remedy {
        /** Validates the fields. */
        public External {
            Objects.requireNonNull(name, "name");
            requirePositive(timeout, name);
            Objects.requireNonNull(source, "source of remedy " + name);
        }

        /**
         * An external remedy whose remediation object is given inline.
         *
         * @param name     the remedy's name
         * @param timeout  how long it may run before it is cancelled
         * @param template the object: apiVersion, kind, spec (and metadata for a Job)
         */
        public External(String name, Duration timeout, Map<String, Object> template) {
            this(name, timeout, new Inline(template));
        }

        /** Where the remediation object comes from. */
        public sealed interface Source permits TemplateRef, Inline {
        }

        /**
         * A reference to a remediation template object in the cluster (an ObjectReference, as Cluster API's
         * {@code externalRemediationTemplate}): remedy looks it up and instantiates it for the node, as
         * NodeHealthCheck and MachineHealthCheck do (kind without {@code Template}, spec from the template's
         * {@code spec.template.spec}).
         *
         * @param apiVersion the template's API version, {@code group/version}
         * @param kind       the template's kind, ending in {@code Template}
         * @param name       the template's name
         * @param namespace  the template's namespace; empty means the namespace remedy runs in
         */
        public record TemplateRef(String apiVersion, String kind, String name, Optional<String> namespace)
                implements Source {
            /** Validates the fields. */
            public TemplateRef {
                Objects.requireNonNull(apiVersion, "apiVersion");
                Objects.requireNonNull(kind, "kind");
                Objects.requireNonNull(name, "name");
                Objects.requireNonNull(namespace, "namespace");
            }
        }

        /**
         * An object remedy creates as it is, for the node: a {@code batch/v1} Job runs as the node's remedy Job; any
         * other kind is created with the node's (or its Machine's) name, as an instantiated template would be.
         *
         * @param object the object: apiVersion, kind, spec, and optionally metadata (annotations); copied
         */
        public record Inline(Map<String, Object> object) implements Source {
            /** Copies the object. */
            public Inline {
                object = Map.copyOf(object);
            }
        }
    }

    private static void requirePositive(Duration timeout, String name) {
        Objects.requireNonNull(timeout, "timeout of remedy " + name);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout of remedy " + name + " must be positive, was " + timeout);
        }
    }
}
