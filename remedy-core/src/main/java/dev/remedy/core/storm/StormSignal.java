package dev.remedy.core.storm;

import java.time.Instant;
import java.util.Objects;

/**
 * Something storm protection wants the caller to publish as an event: storms starting and ending,
 * shared infrastructure suspected and cleared (once per episode), and every denied admission.
 */
public sealed interface StormSignal {

    /** When it happened. */
    Instant at();

    /** What was counted against which limit. */
    String detail();

    /**
     * The pool crossed its storm threshold: no new fences until it is back within it and the cooldown elapsed.
     *
     * @param at     when
     * @param reason {@link Admission.Reason#MIN_HEALTHY} or {@link Admission.Reason#MAX_UNHEALTHY}
     * @param detail the counts and the threshold
     */
    record StormStarted(Instant at, Admission.Reason reason, String detail) implements StormSignal {

        /** Validates that every field is present. */
        public StormStarted {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * The pool stayed within its threshold for the storm cooldown: fences may be admitted again.
     *
     * @param at     when
     * @param detail the counts and the cooldown
     */
    record StormEnded(Instant at, String detail) implements StormSignal {

        /** Validates that every field is present. */
        public StormEnded {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * Suspect shared infrastructure: the unhealthy nodes concentrate in one failure domain, whose nodes are not
     * fenced until it clears.
     *
     * @param at     when
     * @param label  the failure-domain label ({@code rack})
     * @param value  the domain ({@code r1})
     * @param detail the counts and the limit
     */
    record SharedInfrastructureSuspected(Instant at, String label, String value, String detail)
            implements StormSignal {

        /** Validates that every field is present. */
        public SharedInfrastructureSuspected {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * A suspected failure domain no longer meets the rule: its nodes may be fenced again.
     *
     * @param at     when
     * @param label  the failure-domain label
     * @param value  the domain
     * @param detail the counts now
     */
    record SharedInfrastructureCleared(Instant at, String label, String value, String detail)
            implements StormSignal {

        /** Validates that every field is present. */
        public SharedInfrastructureCleared {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * A fence was held or refused.
     *
     * @param node     the node
     * @param at       when
     * @param decision the hold or refusal, with its reason and detail
     */
    record AdmissionDenied(String node, Instant at, Admission.Denied decision) implements StormSignal {

        /** Validates that every field is present. */
        public AdmissionDenied {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(decision, "decision");
        }

        @Override
        public String detail() {
            return decision.detail();
        }
    }
}
