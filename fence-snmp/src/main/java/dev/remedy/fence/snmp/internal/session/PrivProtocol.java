package dev.remedy.fence.snmp.internal.session;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES192;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.PrivacyProtocol;
import org.snmp4j.smi.OID;

/**
 * The SNMPv3 privacy protocols, by the {@code snmp_priv_prot} values net-snmp's {@code -x} takes: AES-128 (RFC 3826;
 * {@code AES} as the ClusterLabs agents say it) and AES-192/256 with the key extension net-snmp uses
 * (draft-blumenthal-aes-usm). DES is not offered.
 */
public enum PrivProtocol {
    /** AES-128 in CFB mode, as {@code AES}. */
    AES("AES", PrivAES128.ID),
    /** AES-128 in CFB mode. */
    AES_128("AES-128", PrivAES128.ID),
    /** AES-192 in CFB mode. */
    AES_192("AES-192", PrivAES192.ID),
    /** AES-256 in CFB mode. */
    AES_256("AES-256", PrivAES256.ID);

    private final String code;
    private final OID id;

    PrivProtocol(String code, OID id) {
        this.code = code;
        this.id = id;
    }

    /** The {@code snmp_priv_prot} value. */
    public String code() {
        return code;
    }

    OID id() {
        return id;
    }

    /** A new instance of snmp4j's implementation. */
    PrivacyProtocol create() {
        return switch (this) {
            case AES, AES_128 -> new PrivAES128();
            case AES_192 -> new PrivAES192();
            case AES_256 -> new PrivAES256();
        };
    }

    /** Every {@code snmp_priv_prot} value. */
    public static List<String> codes() {
        return Arrays.stream(values()).map(PrivProtocol::code).toList();
    }

    /** The protocol of an {@code snmp_priv_prot} value. */
    public static Optional<PrivProtocol> of(String code) {
        return Arrays.stream(values()).filter(v -> v.code.equals(code)).findFirst();
    }
}
