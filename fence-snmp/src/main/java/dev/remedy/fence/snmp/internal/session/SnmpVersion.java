package dev.remedy.fence.snmp.internal.session;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.snmp4j.mp.SnmpConstants;

/** The SNMP versions, by the ClusterLabs agents' {@code snmp_version} values ({@code 1}, {@code 2c}, {@code 3}). */
public enum SnmpVersion {
    /** SNMPv1, community-based. */
    V1("1", SnmpConstants.version1),
    /** SNMPv2c, community-based. */
    V2C("2c", SnmpConstants.version2c),
    /** SNMPv3 with the user-based security model. */
    V3("3", SnmpConstants.version3);

    private final String code;
    private final int wire;

    SnmpVersion(String code, int wire) {
        this.code = code;
        this.wire = wire;
    }

    /** The {@code snmp_version} value. */
    public String code() {
        return code;
    }

    int wire() {
        return wire;
    }

    /** Every {@code snmp_version} value. */
    public static List<String> codes() {
        return Arrays.stream(values()).map(SnmpVersion::code).toList();
    }

    /** The version of an {@code snmp_version} value. */
    public static Optional<SnmpVersion> of(String code) {
        return Arrays.stream(values()).filter(v -> v.code.equals(code)).findFirst();
    }
}
