package dev.remedy.simulators.snmp;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An SNMPv3 user of {@link SnmpdProcess}: name, authentication protocol and passphrase, and optionally a privacy
 * protocol and passphrase (authPriv), or none (authNoPriv). Protocol names are net-snmp's.
 *
 * @param name the user (securityName)
 * @param auth the authentication protocol
 * @param authPassphrase at least 8 characters, no quote, backslash or line break
 * @param priv the privacy protocol, or empty for authNoPriv
 * @param privPassphrase at least 8 characters when {@code priv} is present, empty otherwise
 */
public record SnmpUser(String name, Auth auth, String authPassphrase, Optional<Priv> priv, String privPassphrase) {

    /** Authentication protocols, as net-snmp names them. */
    public enum Auth {
        /** HMAC-SHA-96 (SHA-1). */
        SHA("SHA"),
        /** HMAC-SHA-256 (RFC 7860 usmHMAC192SHA256AuthProtocol). */
        SHA_256("SHA-256"),
        /** HMAC-SHA-512 (usmHMAC384SHA512AuthProtocol). */
        SHA_512("SHA-512");

        private final String netSnmpName;

        Auth(String netSnmpName) {
            this.netSnmpName = netSnmpName;
        }

        /** The name snmpd.conf and {@code snmpget -a} take. */
        public String netSnmpName() {
            return netSnmpName;
        }
    }

    /** Privacy protocols, as net-snmp names them. */
    public enum Priv {
        /** AES-128 (CFB, RFC 3826). */
        AES("AES"),
        /** AES-256 (CFB, Blumenthal key extension, as net-snmp and Cisco do it). */
        AES_256("AES-256");

        private final String netSnmpName;

        Priv(String netSnmpName) {
            this.netSnmpName = netSnmpName;
        }

        /** The name snmpd.conf and {@code snmpget -x} take. */
        public String netSnmpName() {
            return netSnmpName;
        }
    }

    /**
     * Checks the name and passphrases.
     *
     * @throws IllegalArgumentException naming the field that is wrong (never the passphrase itself)
     */
    public SnmpUser {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(priv, "priv");
        if (!name.matches("[A-Za-z0-9._-]{1,32}")) {
            throw new IllegalArgumentException("SNMPv3 user name '" + name
                    + "' must be 1 to 32 letters, digits or ._-");
        }
        checkPassphrase(name, "authentication", authPassphrase);
        if (priv.isPresent()) {
            checkPassphrase(name, "privacy", privPassphrase);
        } else if (!privPassphrase.isEmpty()) {
            throw new IllegalArgumentException("SNMPv3 user " + name + " has a privacy passphrase but no privacy "
                    + "protocol; give both or neither");
        }
    }

    /** An authPriv user. */
    public static SnmpUser authPriv(String name, Auth auth, String authPassphrase, Priv priv, String privPassphrase) {
        return new SnmpUser(name, auth, authPassphrase, Optional.of(priv), privPassphrase);
    }

    /** An authNoPriv user. */
    public static SnmpUser authNoPriv(String name, Auth auth, String authPassphrase) {
        return new SnmpUser(name, auth, authPassphrase, Optional.empty(), "");
    }

    /** {@code authPriv} or {@code authNoPriv}, as {@code snmpget -l} and fence-agents' {@code snmp_sec_level} take. */
    public String securityLevel() {
        return priv.isPresent() ? "authPriv" : "authNoPriv";
    }

    /**
     * The net-snmp client arguments for this user: {@code -v3 -l <level> -u <name> -a <auth> -A <passphrase>} and
     * {@code -x}/{@code -X} for privacy. They hold the passphrases: for test witnesses only, never for code under
     * test, whose argv must stay free of secrets.
     */
    public List<String> clientArguments() {
        List<String> arguments = new ArrayList<>(List.of("-v3", "-l", securityLevel(), "-u", name, "-a",
                auth.netSnmpName(), "-A", authPassphrase));
        priv.ifPresent(p -> arguments.addAll(List.of("-x", p.netSnmpName(), "-X", privPassphrase)));
        return List.copyOf(arguments);
    }

    /** The snmpd.conf lines that create the user with read-write access at its security level. */
    String configLines() {
        String create = "createUser " + name + " " + auth.netSnmpName() + " \"" + authPassphrase + "\""
                + priv.map(p -> " " + p.netSnmpName() + " \"" + privPassphrase + "\"").orElse("");
        return create + "\nrwuser " + name + " " + (priv.isPresent() ? "priv" : "auth") + "\n";
    }

    private static void checkPassphrase(String name, String what, String passphrase) {
        Objects.requireNonNull(passphrase, what + " passphrase");
        if (passphrase.length() < 8 || passphrase.matches(".*[\"\\\\\\r\\n].*")) {
            throw new IllegalArgumentException("SNMPv3 user " + name + ": the " + what + " passphrase must have at "
                    + "least 8 characters (net-snmp refuses shorter ones) and no quote, backslash or line break");
        }
    }

    /** The user and its protocols; never the passphrases. */
    @Override
    public String toString() {
        return "SnmpUser[" + name + ", " + auth.netSnmpName() + priv.map(p -> "/" + p.netSnmpName()).orElse("")
                + ", " + securityLevel() + "]";
    }
}
