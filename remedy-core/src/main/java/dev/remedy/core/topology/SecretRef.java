package dev.remedy.core.topology;

import java.util.Objects;

/**
 * Where a secret agent parameter is read from: an environment variable or a file. The configuration holds only
 * these references; a {@link SecretResolver} reads the values when a node's plan is built.
 *
 * @param kind     where to look
 * @param location the variable name or the absolute file path
 */
public record SecretRef(Kind kind, String location) {

    /** Where a secret is kept. */
    public enum Kind {
        /** An environment variable of the process; written {@code {env: VAR}}. */
        ENV("env"),
        /** A file (for example a mounted Kubernetes secret); written {@code {file: PATH}}. */
        FILE("file");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        /** The key used in configuration files: {@code env} or {@code file}. */
        public String code() {
            return code;
        }
    }

    /** Validates that both fields are present and the location is not blank. */
    public SecretRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(location, "location");
        if (location.isBlank()) {
            throw new IllegalArgumentException("a secret reference needs a " + (kind == Kind.ENV
                    ? "variable name" : "file path"));
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

    /** {@code {env: VAR}} or {@code {file: PATH}}, as written in configuration files. */
    @Override
    public String toString() {
        return "{" + kind.code() + ": " + location + "}";
    }
}
