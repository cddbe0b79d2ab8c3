package dev.remedy.simulators.openssh;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How {@link OpenSshServerProcess#start} sets up its server. Immutable; start from {@link #defaults()} and change
 * one field at a time with the {@code with…} methods.
 *
 * @param user the local account clients log in as: 1 to 32 characters, a lower-case letter or {@code _} first,
 *     then lower-case letters, digits, {@code _} or {@code -}; never {@code root}
 * @param password the account's password: 1 to 64 printable US-ASCII characters (space included)
 * @param hostKeyType the type of the server's only host key
 * @param outlets how many outlets the emulated PDU has, 1 to 48 (all on at start)
 */
public record OpenSshOptions(String user, String password, HostKeyType hostKeyType, int outlets) {

    /** The user of {@link #defaults()}. */
    public static final String DEFAULT_USER = "remedy-fence";
    /** The password of {@link #defaults()}. */
    public static final String DEFAULT_PASSWORD = "remedy-ssh-secret";
    /** The outlet count of {@link #defaults()}. */
    public static final int DEFAULT_OUTLETS = 8;
    /** The largest outlet count accepted. */
    public static final int MAX_OUTLETS = 48;

    private static final Pattern USER = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");
    private static final Pattern PASSWORD = Pattern.compile("[\\x20-\\x7e]{1,64}");

    /** The type of the server's host key; the server offers only that one. */
    public enum HostKeyType {
        /** Ed25519 ({@code ssh-ed25519}), the default. */
        ED25519("ed25519", "ssh-ed25519", List.of("-t", "ed25519")),
        /** RSA 3072 bits ({@code ssh-rsa} keys, signed with {@code rsa-sha2-512} or {@code rsa-sha2-256}). */
        RSA("rsa", "ssh-rsa", List.of("-t", "rsa", "-b", "3072"));

        private final String shortName;
        private final String keyType;
        private final List<String> keygenArguments;

        HostKeyType(String shortName, String keyType, List<String> keygenArguments) {
            this.shortName = shortName;
            this.keyType = keyType;
            this.keygenArguments = keygenArguments;
        }

        /** The key type as it appears in a public key or known_hosts line: {@code ssh-ed25519} or {@code ssh-rsa}. */
        public String keyType() {
            return keyType;
        }

        /** The name {@code ssh-keyscan -t} takes and the host key file's suffix: {@code ed25519} or {@code rsa}. */
        String shortName() {
            return shortName;
        }

        /** The {@code ssh-keygen} arguments that choose this type (and size). */
        List<String> keygenArguments() {
            return keygenArguments;
        }
    }

    /**
     * Checks every field.
     *
     * @throws IllegalArgumentException naming the field that breaks the rules above
     * @throws NullPointerException if a field is null
     */
    public OpenSshOptions {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(hostKeyType, "hostKeyType");
        if (!USER.matcher(user).matches() || user.equals("root")) {
            throw new IllegalArgumentException("user '" + user + "' is not a usable local account name: 1 to 32 "
                    + "characters, [a-z_] first, then [a-z0-9_-], and not root");
        }
        if (!PASSWORD.matcher(password).matches()) {
            throw new IllegalArgumentException("password must be 1 to 64 printable US-ASCII characters (chpasswd "
                    + "reads it as one line)");
        }
        if (outlets < 1 || outlets > MAX_OUTLETS) {
            throw new IllegalArgumentException("outlets must be 1 to " + MAX_OUTLETS + ": " + outlets);
        }
    }

    /** User {@value #DEFAULT_USER}, password {@value #DEFAULT_PASSWORD}, an Ed25519 host key, 8 outlets. */
    public static OpenSshOptions defaults() {
        return new OpenSshOptions(DEFAULT_USER, DEFAULT_PASSWORD, HostKeyType.ED25519, DEFAULT_OUTLETS);
    }

    /** These options with another user. */
    public OpenSshOptions withUser(String newUser) {
        return new OpenSshOptions(newUser, password, hostKeyType, outlets);
    }

    /** These options with another password. */
    public OpenSshOptions withPassword(String newPassword) {
        return new OpenSshOptions(user, newPassword, hostKeyType, outlets);
    }

    /** These options with another host key type. */
    public OpenSshOptions withHostKeyType(HostKeyType newHostKeyType) {
        return new OpenSshOptions(user, password, newHostKeyType, outlets);
    }

    /** These options with another outlet count. */
    public OpenSshOptions withOutlets(int newOutlets) {
        return new OpenSshOptions(user, password, hostKeyType, newOutlets);
    }

    /** Shows every field but the password. */
    @Override
    public String toString() {
        return "OpenSshOptions[user=" + user + ", password=***, hostKeyType=" + hostKeyType + ", outlets=" + outlets
                + "]";
    }
}
