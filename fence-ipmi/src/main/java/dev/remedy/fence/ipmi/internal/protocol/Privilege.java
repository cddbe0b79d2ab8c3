package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Locale;

/**
 * IPMI privilege levels (IPMI v2.0 table 6-2). A session asks for one in RAKP 1 and activates it with Set
 * Session Privilege Level; Chassis Control needs at least {@link #OPERATOR}.
 */
public enum Privilege {
    /** Callback: for a BMC that calls back. */
    CALLBACK(1),
    /** User: read-only commands, such as Get Chassis Status. */
    USER(2),
    /** Operator: everything a session may do except configuration, including Chassis Control. */
    OPERATOR(3),
    /** Administrator: everything. */
    ADMINISTRATOR(4);

    private final int code;

    Privilege(int code) {
        this.code = code;
    }

    /** The level on the wire. */
    public int code() {
        return code;
    }

    /** Whether this level includes {@code other}. */
    public boolean includes(Privilege other) {
        return code >= other.code;
    }

    /**
     * The level with {@code code}.
     *
     * @throws IllegalArgumentException for a code outside 1 to 4
     */
    public static Privilege of(int code) {
        for (Privilege level : values()) {
            if (level.code == code) {
                return level;
            }
        }
        throw new IllegalArgumentException("IPMI privilege level " + code + " is not one of 1 (callback), 2 (user), "
                + "3 (operator), 4 (administrator)");
    }

    /**
     * The level named as fence_ipmilan's {@code privlvl} names it ({@code callback}, {@code user},
     * {@code operator}, {@code administrator}; {@code admin} is accepted too), ignoring case.
     *
     * @throws IllegalArgumentException naming the accepted names
     */
    public static Privilege named(String name) {
        String key = name.strip().toLowerCase(Locale.ROOT);
        if (key.equals("admin")) {
            return ADMINISTRATOR;
        }
        for (Privilege level : values()) {
            if (level.name().toLowerCase(Locale.ROOT).equals(key)) {
                return level;
            }
        }
        throw new IllegalArgumentException("privilege level '" + name
                + "' is not one of callback, user, operator, administrator");
    }
}
