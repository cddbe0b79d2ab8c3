package dev.remedy.simulators.ipmi;

/** An IPMI privilege level (IPMI v2.0 table 6-1), ordered from lowest to highest. */
public enum Privilege {
    /** Callback: only what a callback session needs. */
    CALLBACK(1),
    /** User: read-only commands such as Get Chassis Status. */
    USER(2),
    /** Operator: everything but configuration, including Chassis Control. */
    OPERATOR(3),
    /** Administrator: everything. */
    ADMINISTRATOR(4);

    private final int level;

    Privilege(int level) {
        this.level = level;
    }

    /** The level as it appears on the wire (1 to 4). */
    public int level() {
        return level;
    }

    /** Whether this level is at least {@code other}. */
    public boolean atLeast(Privilege other) {
        return level >= other.level;
    }

    /**
     * The privilege with wire value {@code level}.
     *
     * @throws IllegalArgumentException unless {@code level} is 1 to 4
     */
    public static Privilege ofLevel(int level) {
        for (Privilege privilege : values()) {
            if (privilege.level == level) {
                return privilege;
            }
        }
        throw new IllegalArgumentException("no IPMI privilege level " + level + "; use 1 (callback) to 4 (administrator)");
    }

    /** The lower of two levels. */
    static Privilege min(Privilege a, Privilege b) {
        return a.level <= b.level ? a : b;
    }
}
