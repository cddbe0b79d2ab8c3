package dev.remedy.cli;

import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.config.ParameterDescriptor;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Fills an agent configuration from the command line: {@code -p key=value} for plain parameters,
 * {@code --secret-env key=VARIABLE} and {@code --secret-file key=PATH} for secrets. A secret on the command line
 * itself is refused: every user of the machine can read it in the process list.
 */
final class SecretSources {

    private static final Set<PosixFilePermission> SHARED = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.OTHERS_READ);

    private final AgentConfig.Builder config;
    private final CliEnvironment env;
    private final String agentType;
    private final List<ParameterDescriptor> parameters;

    SecretSources(AgentConfig.Builder config, CliEnvironment env, String agentType,
                  List<ParameterDescriptor> parameters) {
        this.config = config;
        this.env = env;
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
        String value = env.variable(kv[1]).orElseThrow(() -> new UserError("environment variable '" + kv[1]
                + "' (for secret parameter '" + kv[0] + "') is not set; export it before running remedy"));
        config.secret(kv[0], Secret.of(value));
    }

    void fromFile(String assignment, PrintWriter warnings) {
        String[] kv = split(assignment, "--secret-file", "KEY=PATH");
        requireSecret(kv[0], "--secret-file");
        Path path = Path.of(kv[1]);
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("cannot read secret file '" + path + "' for parameter '" + kv[0] + "': "
                    + reason(path, e) + "; check the path and its permissions");
        }
        warnIfShared(path, kv[0], warnings);
        config.secret(kv[0], Secret.of(withoutTrailingNewline(text)));
    }

    /** The file's text without its final line terminator: the secret is everything else, spaces included. */
    private static String withoutTrailingNewline(String text) {
        if (text.endsWith("\r\n")) {
            return text.substring(0, text.length() - 2);
        }
        if (text.endsWith("\n") || text.endsWith("\r")) {
            return text.substring(0, text.length() - 1);
        }
        return text;
    }

    /** Why a file could not be read, in words (never the exception's class name, never the file's content). */
    private static String reason(Path path, IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof CharacterCodingException) {
            return "it is not UTF-8 text";
        }
        if (Files.isDirectory(path)) {
            return "it is a directory";
        }
        return e.getMessage() == null ? "input/output error" : e.getMessage();
    }

    private void requireSecret(String key, String option) {
        if (parameters.stream().noneMatch(p -> p.answersTo(key))) {
            String secrets = parameters.stream().filter(ParameterDescriptor::secret).map(ParameterDescriptor::name)
                    .collect(Collectors.joining(", "));
            throw new UserError(option + ": '" + key + "' is not a parameter of agent '" + agentType + "'; "
                    + (secrets.isEmpty() ? "it has no secret parameter" : "its secret parameters are: " + secrets));
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
