package dev.remedy.fence.snmp.internal.session;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.snmp4j.security.AuthHMAC128SHA224;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthHMAC256SHA384;
import org.snmp4j.security.AuthHMAC384SHA512;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.AuthenticationProtocol;
import org.snmp4j.smi.OID;

/**
 * The SNMPv3 authentication protocols, by the {@code snmp_auth_prot} values net-snmp's {@code -a} takes: SHA-1
 * (RFC 3414) and the SHA-2 HMACs of RFC 7860. MD5 is not offered.
 */
public enum AuthProtocol {
    /** HMAC-SHA-96 (SHA-1). */
    SHA("SHA", AuthSHA.ID),
    /** HMAC-128-SHA-224. */
    SHA_224("SHA-224", AuthHMAC128SHA224.ID),
    /** HMAC-192-SHA-256. */
    SHA_256("SHA-256", AuthHMAC192SHA256.ID),
    /** HMAC-256-SHA-384. */
    SHA_384("SHA-384", AuthHMAC256SHA384.ID),
    /** HMAC-384-SHA-512. */
    SHA_512("SHA-512", AuthHMAC384SHA512.ID);

    private final String code;
    private final OID id;

    AuthProtocol(String code, OID id) {
        this.code = code;
        this.id = id;
    }

    /** The {@code snmp_auth_prot} value. */
    public String code() {
        return code;
    }

    OID id() {
        return id;
    }

    /** A new instance of snmp4j's implementation. */
    AuthenticationProtocol create() {
        return switch (this) {
            case SHA -> new AuthSHA();
            case SHA_224 -> new AuthHMAC128SHA224();
            case SHA_256 -> new AuthHMAC192SHA256();
            case SHA_384 -> new AuthHMAC256SHA384();
            case SHA_512 -> new AuthHMAC384SHA512();
        };
    }

    /** Every {@code snmp_auth_prot} value. */
    public static List<String> codes() {
        return Arrays.stream(values()).map(AuthProtocol::code).toList();
    }

    /** The protocol of an {@code snmp_auth_prot} value. */
    public static Optional<AuthProtocol> of(String code) {
        return Arrays.stream(values()).filter(v -> v.code.equals(code)).findFirst();
    }
}
