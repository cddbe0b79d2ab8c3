package dev.remedy.spi;

/** The power state of a fence target as last read from the device. */
public enum PowerState {
    /** The target reads powered on (or, for a fabric port, enabled). */
    ON,
    /** The target reads powered off (or, for a fabric port, isolated). */
    OFF,
    /** The state was not read, or the device did not say. Never treated as OFF. */
    UNKNOWN
}
