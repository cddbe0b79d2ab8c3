package dev.remedy.core.topology;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a secret agent parameter is read from: an environment variable, a file, or a key of a Kubernetes Secret.
 * The configuration holds only these references; a {@link SecretResolver} reads the values when a node's plan is
 * built.
 *
 * <p>A Kubernetes Secret reference keeps its location as {@code NAME/KEY}: neither a Secret's name (a DNS
 * subdomain) nor a key of its data ({@code [-._a-zA-Z0-9]+}) can hold a {@code /}, so the pair is unambiguous;
 * read it with {@link #secretName()} and {@link #secretKey()}.
 *
 * @param kind     where to look
 * @param location the variable name, the absolute file path, or {@code NAME/KEY} of a Kubernetes Secret
 */
public record SecretRef(Kind kind, String location) {

    /** A Kubernetes object name as a DNS subdomain: lower-case alphanumerics, {@code -} and {@code .}. */
    private static final Pattern SECRET_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?"
            + "(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    /** A key of a Secret's data, as the API server checks it. */
    private static final Pattern SECRET_KEY = Pattern.compile("[-._a-zA-Z0-9]+");
    /** The longest name of a Secret, and of a key of its data. */
    private static final int MAX_NAME_LENGTH = 253;

    /** Where a secret is kept. */
    public enum Kind {
        /** An environment variable of the process; written {@code {env: VAR}}. */
        ENV("env"),
        /** A file (for example a mounted Kubernetes secret); written {@code {file: PATH}}. */
        FILE("file"),
        /**
         * A key of a Kubernetes Secret in the operator's namespace, read through the API by the operator; written
         * {@code {secret: {name: NAME, key: KEY}}}.
         */
        SECRET("secret");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        /** The key used in configuration files: {@code env}, {@code file} or {@code secret}. */
        public String code() {
            return code;
        }
    }

    /**
     * Validates that both fields are present and the location is not blank; for a Kubernetes Secret, that it is
     * {@code NAME/KEY} with a valid Secret name and data key (neither is shown in the message, in case one is the
     * secret itself).
     */
    public SecretRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(location, "location");
        if (location.isBlank()) {
            throw new IllegalArgumentException("a secret reference needs a " + switch (kind) {
                case ENV -> "variable name";
                case FILE -> "file path";
                case SECRET -> "Secret name and key";
            });
        }
        if (kind == Kind.SECRET) {
            int slash = location.indexOf('/');
            if (slash < 0 || !isSecretName(location.substring(0, slash))
                    || !isSecretKey(location.substring(slash + 1))) {
                throw new IllegalArgumentException("a Kubernetes Secret reference needs NAME/KEY: a Secret name (a DNS "
                        + "subdomain) and a key of its data (letters, digits, '-', '_' and '.')");
            }
        }
    }

    /** A reference to the environment variable {@code variable}. */
    public static SecretRef env(String variable) {
        return new SecretRef(Kind.ENV, variable);
    }

    /** A reference to the file {@code path}. */
    public static SecretRef file(String path) {
        return new SecretRef(Kind.FILE, path);
    }

    /**
     * A reference to key {@code key} of the Kubernetes Secret {@code name} in the operator's namespace.
     *
     * @throws IllegalArgumentException if {@code name} is not a Secret name or {@code key} not a key of its data
     */
    public static SecretRef secret(String name, String key) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(key, "key");
        return new SecretRef(Kind.SECRET, name + "/" + key);
    }

    /**
     * The name of the Kubernetes Secret.
     *
     * @throws IllegalStateException if this is not a {@link Kind#SECRET} reference
     */
    public String secretName() {
        return location.substring(0, slash());
    }

    /**
     * The key of the Kubernetes Secret's data.
     *
     * @throws IllegalStateException if this is not a {@link Kind#SECRET} reference
     */
    public String secretKey() {
        return location.substring(slash() + 1);
    }

    /** Whether {@code name} is a valid name of a Kubernetes Secret (a DNS subdomain of at most 253 characters). */
    public static boolean isSecretName(String name) {
        return name.length() <= MAX_NAME_LENGTH && SECRET_NAME.matcher(name).matches();
    }

    /** Whether {@code key} is a valid key of a Kubernetes Secret's data. */
    public static boolean isSecretKey(String key) {
        return key.length() <= MAX_NAME_LENGTH && SECRET_KEY.matcher(key).matches() && !key.equals(".")
                && !key.equals("..");
    }

    private int slash() {
        if (kind != Kind.SECRET) {
            throw new IllegalStateException(this + " is not a Kubernetes Secret reference");
        }
        return location.indexOf('/');
    }

    /** {@code {env: VAR}}, {@code {file: PATH}} or {@code {secret: {name: N, key: K}}}, as in configuration files. */
    @Override
    public String toString() {
        if (kind == Kind.SECRET) {
            return "{secret: {name: " + secretName() + ", key: " + secretKey() + "}}";
        }
        return "{" + kind.code() + ": " + location + "}";
    }
}
