package dev.remedy.core.flow;

import java.time.Instant;
import java.util.Objects;

/**
 * Evidence that the node is stopped, or, where its topology allows it ({@code releaseAfter: isolation}), cut off from
 * the fabrics its workloads use; without one no workload is released.
 *
 * @param kind   what the evidence is
 * @param source the methods that read OFF (or isolated, or assumed reset), or the admin who confirmed, or the node's
 *               boot time
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
        ISOLATED,
        /**
         * Every method of a power level is self fencing ({@link dev.remedy.spi.FencingKind#SELF}, the
         * {@code self-node} agent) and read OFF: the node's agent reported an armed watchdog with the operator's
         * settings, and the safe time after it was last seen healthy has passed, so the node must have reset itself.
         * Nothing read the machine's power: this is an <em>assumption</em> resting on the node agent's contract (it
         * stops feeding its watchdog once it finds itself unhealthy or hangs). The invariant "no release before
         * fencing is confirmed" holds with this kind standing for the confirmation; what it proves is only as strong
         * as that contract and the safe time's arithmetic ({@link dev.remedy.core.rules.SafeTimeSettings}). Like
         * {@link #STATUS_READ_OFF} it releases with the configured strategy (the out-of-service taint); a flow that
         * can read power should use a power agent, and a node that reports a boot after the decision replaces the
         * assumption with {@link #REBOOTED_AFTER_DECISION} before it is made.
         */
        ASSUMED_RESET_AFTER_SAFE_TIME
    }

    /**
     * Whether this evidence counts as the node stopped: every kind but {@link Kind#ISOLATED}; for
     * {@link Kind#ASSUMED_RESET_AFTER_SAFE_TIME} by assumption ({@link #isAssumption()}).
     */
    public boolean provesStopped() {
        return kind != Kind.ISOLATED;
    }

    /** Whether the evidence is an assumption rather than a reading: {@link Kind#ASSUMED_RESET_AFTER_SAFE_TIME}. */
    public boolean isAssumption() {
        return kind == Kind.ASSUMED_RESET_AFTER_SAFE_TIME;
    }
}
