package dev.remedy.cli;

import dev.remedy.core.topology.SecretRef;
import dev.remedy.core.topology.SecretResolver;
import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Fills an agent configuration from the command line: {@code -p key=value} for plain parameters,
 * {@code --secret-env key=VARIABLE} and {@code --secret-file key=PATH} for secrets, read as the engine reads a fence
 * configuration's ({@link SecretResolver#system}). A secret on the command line itself is refused: every user of the
 * machine can read it in the process list.
 */
final class SecretSources {

    private static final Set<PosixFilePermission> SHARED = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.OTHERS_READ);

    private final AgentConfig.Builder config;
    private final SecretResolver secrets;
    private final String agentType;
    private final List<ParameterDescriptor> parameters;

    SecretSources(AgentConfig.Builder config, CliEnvironment env, String agentType,
                  List<ParameterDescriptor> parameters) {
        this.config = config;
        this.secrets = SecretResolver.system(env.variables()::get);
        this.agentType = agentType;
        this.parameters = List.copyOf(parameters);
    }

    void parameter(String assignment) {
        String[] kv = split(assignment, "-p", "KEY=VALUE");
        if (config.isSecret(kv[0])) {
            throw new UserError("parameter '" + kv[0] + "' is secret and would be visible to every user in the "
                    + "process list; pass it with --secret-env " + kv[0] + "=VARIABLE or --secret-file "
                    + kv[0] + "=PATH");
        }
        config.set(kv[0], kv[1]);
    }

    void fromEnvironment(String assignment) {
        String[] kv = split(assignment, "--secret-env", "KEY=VARIABLE");
        requireSecret(kv[0], "--secret-env");
        config.secret(kv[0], resolve(kv[0], "--secret-env", "the name of an environment variable", kv[1],
                SecretRef::env));
    }

    void fromFile(String assignment, PrintWriter warnings) {
        String[] kv = split(assignment, "--secret-file", "KEY=PATH");
        requireSecret(kv[0], "--secret-file");
        Secret secret = resolve(kv[0], "--secret-file", "the path of a file", kv[1], SecretRef::file);
        warnIfShared(Path.of(kv[1]), kv[0], warnings);
        config.secret(kv[0], secret);
    }

    /**
     * The secret for {@code key} from where {@code location} says, read as the engine reads a fence configuration's
     * secrets ({@link SecretResolver#system}): an unset variable, an empty secret, and a file that is not a regular
     * file or is over {@link SecretResolver#MAX_FILE_BYTES} are refused.
     */
    private Secret resolve(String key, String option, String what, String location,
                           Function<String, SecretRef> reference) {
        if (location.isBlank()) {
            throw new UserError(option + " " + key + "=: give " + what + " after '='");
        }
        try {
            return secrets.resolve(reference.apply(location));
        } catch (RemedyException e) {
            throw new UserError("secret parameter '" + key + "': " + e.getMessage());
        }
    }

    private void requireSecret(String key, String option) {
        if (parameters.stream().noneMatch(p -> p.answersTo(key))) {
            String names = parameters.stream().filter(ParameterDescriptor::secret).map(ParameterDescriptor::name)
                    .collect(Collectors.joining(", "));
            throw new UserError(option + ": '" + key + "' is not a parameter of agent '" + agentType + "'; "
                    + (names.isEmpty() ? "it has no secret parameter" : "its secret parameters are: " + names));
        }
        if (!config.isSecret(key)) {
            throw new UserError("'" + key + "' is not a secret parameter of agent '" + agentType + "'; " + option
                    + " is for secrets, pass it with -p " + key + "=VALUE");
        }
    }

    private static void warnIfShared(Path path, String key, PrintWriter warnings) {
        try {
            if (Files.getPosixFilePermissions(path).stream().anyMatch(SHARED::contains)) {
                warnings.println("remedy: warning: secret file '" + path + "' (parameter '" + key
                        + "') is readable by other users; chmod 600 it");
            }
        } catch (IOException | UnsupportedOperationException e) {
            // permissions cannot be read on this file system: nothing to warn about
        }
    }

    private static String[] split(String assignment, String option, String form) {
        int eq = assignment.indexOf('=');
        if (eq <= 0) {
            throw new UserError(option + " expects " + form + " but was given an argument without a key and '='"
                    + " (not repeated here: it may be a secret)");
        }
        return new String[] {assignment.substring(0, eq).trim(), assignment.substring(eq + 1)};
    }
}
