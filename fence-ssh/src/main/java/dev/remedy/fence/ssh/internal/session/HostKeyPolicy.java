package dev.remedy.fence.ssh.internal.session;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a device's SSH host key is verified: against an OpenSSH {@code known_hosts} file, against one pinned SHA-256
 * fingerprint, or not at all (explicitly insecure). Keys are never added to a file on first use.
 */
public sealed interface HostKeyPolicy {

    /** The OpenSSH form of a SHA-256 fingerprint: {@code SHA256:} and 43 base64 characters. */
    Pattern FINGERPRINT = Pattern.compile("SHA256:[A-Za-z0-9+/]{43}");

    /**
     * Keys listed in an OpenSSH known_hosts file (hashed host names included).
     *
     * @param file the file
     */
    record KnownHosts(Path file) implements HostKeyPolicy {
        /** Checks that the file is given. */
        public KnownHosts {
            Objects.requireNonNull(file, "file");
        }
    }

    /**
     * Exactly one key, by its fingerprint as {@code ssh-keygen -l -E sha256} prints it, and its type if known: then
     * only that type's algorithms are offered, as OpenSSH does for a key in known_hosts, so a device with keys of
     * several types shows the pinned one.
     *
     * @param fingerprint {@code SHA256:...}
     * @param keyType     the key's SSH type ({@code ssh-ed25519}, {@code ecdsa-sha2-nistp256}, {@code ssh-rsa}...),
     *                    or empty
     */
    record Pinned(String fingerprint, Optional<String> keyType) implements HostKeyPolicy {

        /** The key types a pin may name. */
        public static final List<String> KEY_TYPES = List.of("ssh-ed25519", "ecdsa-sha2-nistp256",
                "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa");

        /** Checks the fingerprint's form and the type. */
        public Pinned {
            if (!FINGERPRINT.matcher(fingerprint).matches()) {
                throw new IllegalArgumentException("'" + fingerprint + "' is not a SHA-256 host key fingerprint: give it"
                        + " as ssh-keygen -l -E sha256 prints it, SHA256: followed by 43 base64 characters, with the"
                        + " key type before it if the device has keys of several types (ssh-rsa SHA256:...)");
            }
            keyType.filter(type -> !KEY_TYPES.contains(type)).ifPresent(type -> {
                throw new IllegalArgumentException("'" + type + "' is not a host key type; give one of " + KEY_TYPES);
            });
        }

        /** A pin of a key of any type. */
        public Pinned(String fingerprint) {
            this(fingerprint, Optional.empty());
        }

        /**
         * A pin as configured: {@code SHA256:...}, or its key type, a space and {@code SHA256:...}.
         *
         * @throws IllegalArgumentException if it is neither
         */
        public static Pinned parse(String text) {
            String[] words = text.strip().split("\\s+");
            return words.length == 2 ? new Pinned(words[1], Optional.of(words[0])) : new Pinned(text.strip());
        }
    }

    /** No verification at all: anyone on the path can pose as the device. */
    record Insecure() implements HostKeyPolicy {
    }
}
