package dev.remedy.fence.ssh.internal.session;

import java.util.HashMap;
import java.util.Map;

/**
 * The SSH algorithms remedy allows, as jsch configuration keys: by default modern key exchange, host key, cipher
 * and MAC algorithms only (what OpenSSH 9 offers by default), no SHA-1, no CBC, no {@code ssh-rsa} signatures; the
 * legacy ones only when a login asks for them.
 */
final class Algorithms {

    /** jsch configuration: key to comma-separated algorithm names, most preferred first. */
    static final Map<String, String> MODERN = Map.of(
            "kex", "curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp256,ecdh-sha2-nistp384,"
                    + "ecdh-sha2-nistp521,diffie-hellman-group16-sha512,diffie-hellman-group18-sha512,"
                    + "diffie-hellman-group14-sha256",
            "server_host_key", "ssh-ed25519,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,ecdsa-sha2-nistp521,rsa-sha2-512,"
                    + "rsa-sha2-256",
            "PubkeyAcceptedAlgorithms", "ssh-ed25519,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,ecdsa-sha2-nistp521,"
                    + "rsa-sha2-512,rsa-sha2-256",
            "cipher.s2c", "aes128-gcm@openssh.com,aes256-gcm@openssh.com,aes128-ctr,aes192-ctr,aes256-ctr",
            "cipher.c2s", "aes128-gcm@openssh.com,aes256-gcm@openssh.com,aes128-ctr,aes192-ctr,aes256-ctr",
            "mac.s2c", "hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,hmac-sha2-256,hmac-sha2-512",
            "mac.c2s", "hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,hmac-sha2-256,hmac-sha2-512");

    /**
     * {@link #MODERN} followed by the old algorithms of older PDU and switch firmware: SHA-1 key exchange,
     * {@code ssh-rsa} signatures, CBC ciphers, SHA-1 MACs. Only by explicit choice.
     */
    static final Map<String, String> WITH_LEGACY = Map.of(
            "kex", MODERN.get("kex") + ",diffie-hellman-group14-sha1,diffie-hellman-group-exchange-sha1,"
                    + "diffie-hellman-group1-sha1",
            "server_host_key", MODERN.get("server_host_key") + ",ssh-rsa",
            "PubkeyAcceptedAlgorithms", MODERN.get("PubkeyAcceptedAlgorithms") + ",ssh-rsa",
            "cipher.s2c", MODERN.get("cipher.s2c") + ",aes128-cbc,aes192-cbc,aes256-cbc,3des-cbc",
            "cipher.c2s", MODERN.get("cipher.c2s") + ",aes128-cbc,aes192-cbc,aes256-cbc,3des-cbc",
            "mac.s2c", MODERN.get("mac.s2c") + ",hmac-sha1",
            "mac.c2s", MODERN.get("mac.c2s") + ",hmac-sha1");

    private Algorithms() {
    }

    /** The configuration for a login: modern only, or with the legacy algorithms appended. */
    static Map<String, String> of(boolean legacy) {
        return legacy ? WITH_LEGACY : MODERN;
    }

    /**
     * {@link #of(boolean)} with, for a host key pinned with its type, only that type's host key algorithms (an RSA
     * key signs with rsa-sha2-512 or rsa-sha2-256, and with ssh-rsa only when legacy algorithms are allowed).
     */
    static Map<String, String> of(boolean legacy, HostKeyPolicy hostKeys) {
        Map<String, String> algorithms = of(legacy);
        if (!(hostKeys instanceof HostKeyPolicy.Pinned pinned) || pinned.keyType().isEmpty()) {
            return algorithms;
        }
        String type = pinned.keyType().get();
        String offered = type.equals("ssh-rsa") ? "rsa-sha2-512,rsa-sha2-256" + (legacy ? ",ssh-rsa" : "") : type;
        Map<String, String> narrowed = new HashMap<>(algorithms);
        narrowed.put("server_host_key", offered);
        return Map.copyOf(narrowed);
    }
}
