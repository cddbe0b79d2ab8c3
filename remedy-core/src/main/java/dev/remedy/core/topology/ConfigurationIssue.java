package dev.remedy.core.topology;

import java.util.Objects;

/**
 * One problem of a configuration file: a fence configuration, or remedy policies
 * ({@link dev.remedy.core.policy.PolicyLoader}).
 *
 * @param source  the file (or source name) the problem is in
 * @param path    where in the document, JSON-pointer-like: {@code templates.bmc.parameters.pasword},
 *                {@code topologies[1].power_management.levels[0][1]}, {@code policies[0].escalation[1].timeout};
 *                empty for the whole document
 * @param message what is wrong and what to do about it; never contains a secret value
 */
public record ConfigurationIssue(String source, String path, String message) {

    /** Validates that every field is present. */
    public ConfigurationIssue {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }

    /** {@code source:path: message}, or {@code source: message} for the whole document. */
    @Override
    public String toString() {
        return path.isEmpty() ? source + ": " + message : source + ":" + path + ": " + message;
    }
}
