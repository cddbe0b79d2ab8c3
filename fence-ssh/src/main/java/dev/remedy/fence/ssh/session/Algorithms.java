package dev.remedy.fence.ssh.session;

import java.util.Map;

/**
 * The SSH algorithms remedy allows, as jsch configuration keys: modern key exchange, host key, cipher and MAC
 * algorithms only (what OpenSSH 9 offers by default), no SHA-1, no CBC, no {@code ssh-rsa} signatures.
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

    private Algorithms() {
    }
}
