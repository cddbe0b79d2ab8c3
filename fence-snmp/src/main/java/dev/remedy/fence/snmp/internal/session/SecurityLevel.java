package dev.remedy.fence.snmp.internal.session;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The SNMPv3 security levels, by the {@code snmp_sec_level} values of the ClusterLabs agents. */
public enum SecurityLevel {
    /** No authentication, no privacy: anyone on the path can read and forge the requests. */
    NO_AUTH_NO_PRIV("noAuthNoPriv", org.snmp4j.security.SecurityLevel.NOAUTH_NOPRIV),
    /** Authenticated, not encrypted. */
    AUTH_NO_PRIV("authNoPriv", org.snmp4j.security.SecurityLevel.AUTH_NOPRIV),
    /** Authenticated and encrypted. */
    AUTH_PRIV("authPriv", org.snmp4j.security.SecurityLevel.AUTH_PRIV);

    private final String code;
    private final int wire;

    SecurityLevel(String code, int wire) {
        this.code = code;
        this.wire = wire;
    }

    /** The {@code snmp_sec_level} value. */
    public String code() {
        return code;
    }

    int wire() {
        return wire;
    }

    /** Whether this level authenticates. */
    public boolean authenticates() {
        return this != NO_AUTH_NO_PRIV;
    }

    /** Whether this level encrypts. */
    public boolean encrypts() {
        return this == AUTH_PRIV;
    }

    /** Every {@code snmp_sec_level} value. */
    public static List<String> codes() {
        return Arrays.stream(values()).map(SecurityLevel::code).toList();
    }

    /** The level of an {@code snmp_sec_level} value. */
    public static Optional<SecurityLevel> of(String code) {
        return Arrays.stream(values()).filter(v -> v.code.equals(code)).findFirst();
    }
}
