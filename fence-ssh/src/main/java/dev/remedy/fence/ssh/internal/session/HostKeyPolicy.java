package dev.remedy.fence.ssh.internal.session;

import java.nio.file.Path;
import java.util.Objects;
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
     * Exactly one key, by its fingerprint as {@code ssh-keygen -l -E sha256} prints it.
     *
     * @param fingerprint {@code SHA256:...}
     */
    record Pinned(String fingerprint) implements HostKeyPolicy {
        /** Checks the fingerprint's form. */
        public Pinned {
            if (!FINGERPRINT.matcher(fingerprint).matches()) {
                throw new IllegalArgumentException("'" + fingerprint + "' is not a SHA-256 host key fingerprint: give it"
                        + " as ssh-keygen -l -E sha256 prints it, SHA256: followed by 43 base64 characters");
            }
        }
    }

    /** No verification at all: anyone on the path can pose as the device. */
    record Insecure() implements HostKeyPolicy {
    }
}
