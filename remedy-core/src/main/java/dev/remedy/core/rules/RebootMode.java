package dev.remedy.core.rules;

/** How a host is powered off for a reboot request. */
public enum RebootMode {
    /** Graceful shutdown first; a hard power off once the soft timeout has passed (see {@link RebootRequests#modeAt}). */
    SOFT,
    /** Power cut at once: workload recovery wins over a graceful shutdown. */
    HARD
}
