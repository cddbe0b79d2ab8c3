package dev.remedy.core.topology;

import dev.remedy.config.DocumentException;
import dev.remedy.config.TextFiles;
import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.Secret;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@link SecretResolver#system()}: environment variables (from an injectable lookup) and files. A Kubernetes Secret
 * reference is refused: it needs the operator's Kubernetes client.
 */
final class SystemSecretResolver implements SecretResolver {

    private final Function<String, String> environment;

    SystemSecretResolver(Function<String, String> environment) {
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    @Override
    public Secret resolve(SecretRef ref) {
        Objects.requireNonNull(ref, "ref");
        String value = switch (ref.kind()) {
            case ENV -> {
                String text = environment.apply(ref.location());
                if (text == null) {
                    throw new RemedyException("environment variable '" + ref.location()
                            + "' is not set; set it in the environment of the process that runs remedy");
                }
                yield text;
            }
            case FILE -> read(ref.location());
            case SECRET -> throw new RemedyException(ref + " names a Kubernetes Secret, which only the operator reads "
                    + "(through a Kubernetes secret resolver, such as fence-kube's KubeSecretResolver); run this "
                    + "configuration in the operator, or give the secret here as {env: VAR} or {file: PATH}");
        };
        if (value.isEmpty()) {
            throw new RemedyException((ref.kind() == SecretRef.Kind.ENV ? "environment variable '"
                    + ref.location() + "'" : "the secret file '" + ref.location() + "'") + " is empty; put the "
                    + "secret there (an empty secret is never a password)");
        }
        return Secret.of(value);
    }

    /** The file's text without its final line terminator: the secret is everything else, spaces included. */
    private static String read(String location) {
        String text;
        try {
            text = TextFiles.read(Path.of(location), MAX_FILE_BYTES);
        } catch (DocumentException | InvalidPathException e) {
            // The message names the path only; the file's content is never read into it.
            String why = e instanceof DocumentException ? e.getMessage() : "it is not a path; give the file's path";
            throw new RemedyException("cannot read the secret file '" + location + "': " + why, e.getCause());
        }
        if (text.endsWith("\r\n")) {
            return text.substring(0, text.length() - 2);
        }
        return text.endsWith("\n") || text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }
}
