package dev.remedy.core.flow;

import java.time.Instant;
import java.util.Objects;

/**
 * Evidence that the node is stopped, or, where its topology allows it ({@code releaseAfter: isolation}), cut off from
 * the fabrics its workloads use; without one no workload is released.
 *
 * @param kind   what the evidence is
 * @param source the methods that read OFF (or isolated), or the admin who confirmed, or the node's boot time
 * @param at     when it was established
 */
public record Confirmation(Kind kind, String source, Instant at) {

    /** Validates that every field is present. */
    public Confirmation {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(at, "at");
    }

    /** The kinds of evidence. */
    public enum Kind {
        /** Every method of a level read OFF by STATUS. */
        STATUS_READ_OFF,
        /** The node booted after the fencing decision (so it stopped in between). */
        REBOOTED_AFTER_DECISION,
        /** An administrator stated that they powered the node off. */
        MANUAL,
        /**
         * Every method of an isolation level read isolated, in a topology that releases after isolation: the node is
         * cut off, not proven stopped, so its pods are deleted without the out-of-service taint and the flow goes on
         * to stop it (power management, or a reboot).
         */
        ISOLATED
    }

    /** Whether this evidence proves the node stopped (every kind but {@link Kind#ISOLATED}). */
    public boolean provesStopped() {
        return kind != Kind.ISOLATED;
    }
}
