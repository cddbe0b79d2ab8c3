package dev.remedy.simulation;

import dev.remedy.core.policy.AdmissionGate;

/**
 * An {@link AdmissionGate} that also says what kind of denial each of its reasons is, so that a simulation's
 * timeline can tell a remediation held back for a moment ({@link TimelineEntry.Kind#HELD}) from one refused by a
 * storm ({@link TimelineEntry.Kind#REFUSED}) or by a suspected failure of shared infrastructure
 * ({@link TimelineEntry.Kind#SHARED_INFRASTRUCTURE}). Reasons of a plain {@code AdmissionGate} count as held.
 */
public interface ClassifiedGate extends AdmissionGate {

    /** The kind of a reason this gate gave: HELD, REFUSED or SHARED_INFRASTRUCTURE. */
    TimelineEntry.Kind kindOf(String reason);
}
