package dev.remedy.core.flow;

import java.time.Instant;
import java.util.Objects;

/**
 * Evidence that the node is stopped, without which no workload is released.
 *
 * @param kind   what the evidence is
 * @param source the methods that read OFF, or the admin who confirmed, or the node's boot time
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
        MANUAL
    }
}
