package dev.remedy.spi.config;

import java.util.Objects;

/**
 * One thing wrong with a configuration.
 *
 * @param parameter the parameter concerned, as the user wrote it or as the descriptor names it
 * @param problem   what is wrong, with the offending value quoted unless the parameter is secret
 * @param hint      what to do about it
 */
public record ConfigProblem(String parameter, String problem, String hint) {

    /** Validates that every field is present. */
    public ConfigProblem {
        Objects.requireNonNull(parameter, "parameter");
        Objects.requireNonNull(problem, "problem");
        Objects.requireNonNull(hint, "hint");
    }

    /** {@code parameter 'x': problem; hint}. */
    @Override
    public String toString() {
        return "parameter '" + parameter + "': " + problem + "; " + hint;
    }
}
