package dev.remedy.fence.ssh.internal.session;

import dev.remedy.spi.config.Secret;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how to log in: the device's address, the account, a password or a private key (with its
 * passphrase), and how to verify the device's host key.
 *
 * @param host       host name or address
 * @param port       TCP port
 * @param user       account name
 * @param password   the password, if password login is allowed
 * @param identity   an OpenSSH private key file (ed25519, ECDSA or RSA), tried before the password
 * @param passphrase the private key's passphrase, if it has one
 * @param hostKeys   how the device's host key is verified
 * @param legacy     whether the old algorithms of older firmware (SHA-1, CBC, {@code ssh-rsa}) are allowed too
 */
public record SshLogin(String host, int port, String user, Optional<Secret> password, Optional<Path> identity,
        Optional<Secret> passphrase, HostKeyPolicy hostKeys, boolean legacy) {

    /** Checks that the fields are present and that there is a way to authenticate. */
    public SshLogin {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(passphrase, "passphrase");
        Objects.requireNonNull(hostKeys, "hostKeys");
        if (password.isEmpty() && identity.isEmpty()) {
            throw new IllegalArgumentException("give a password or an identity file to log in to " + host);
        }
    }

    /** {@code user@host:port}, for messages. */
    public String describe() {
        return user + "@" + host + ":" + port;
    }

    @Override
    public String toString() {
        return "SshLogin[" + describe() + ", " + (identity.isPresent() ? "key " + identity.get() : "password")
                + ", host key " + hostKeys + (legacy ? ", legacy algorithms" : "") + "]";
    }
}
