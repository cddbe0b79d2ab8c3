package dev.remedy.spi.config;

import java.util.Objects;

/**
 * One thing wrong with a configuration: an agent's parameter, or a place in a configuration file (a fence
 * configuration, policies, a scenario, device profiles). Agents make the first kind with
 * {@link #ConfigProblem(String, String, String)}; readers of files make the second with {@link #in}, and
 * {@link #at} moves an agent's problem to the place in a file where the parameter was written.
 *
 * @param source  the file (or source name) the problem is in; empty when unknown, as for an agent's parameter
 * @param path    where: in a file, JSON-pointer-like ({@code templates.bmc.parameters.pasword},
 *                {@code policies[0].escalation[1].timeout}), empty for the whole document; for an agent, the
 *                parameter as the user wrote it or as the descriptor names it
 * @param problem what is wrong, with the offending value quoted unless it may be secret
 * @param hint    what to do about it; empty when {@code problem} says it already
 */
public record ConfigProblem(String source, String path, String problem, String hint) {

    /** Validates that every field is present. */
    public ConfigProblem {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(problem, "problem");
        Objects.requireNonNull(hint, "hint");
    }

    /**
     * A problem with an agent's parameter, not (yet) located in a file.
     *
     * @param parameter the parameter concerned, as the user wrote it or as the descriptor names it
     * @param problem   what is wrong, with the offending value quoted unless the parameter is secret
     * @param hint      what to do about it
     */
    public ConfigProblem(String parameter, String problem, String hint) {
        this("", Objects.requireNonNull(parameter, "parameter"), problem, hint);
    }

    /**
     * A problem at {@code path} of the file {@code source}.
     *
     * @param message what is wrong and what to do about it; never a secret value
     */
    public static ConfigProblem in(String source, String path, String message) {
        return new ConfigProblem(source, path, message, "");
    }

    /** This problem, found where a file wrote it: at {@code path} of {@code source}. */
    public ConfigProblem at(String source, String path) {
        return new ConfigProblem(source, path, problem, hint);
    }

    /** {@code problem; hint}, or the problem alone when there is no hint. */
    public String message() {
        return hint.isEmpty() ? problem : problem + "; " + hint;
    }

    /**
     * {@code parameter 'x': problem; hint} for an agent's parameter (no source); {@code source:path: message} in a
     * file, or {@code source: message} for the whole document.
     */
    @Override
    public String toString() {
        if (source.isEmpty()) {
            return "parameter '" + path + "': " + message();
        }
        return path.isEmpty() ? source + ": " + message() : source + ":" + path + ": " + message();
    }
}
