package dev.remedy.core.topology;

import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/** {@link SecretResolver#system()}: environment variables (from an injectable lookup) and files. */
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
                    throw new RemedyException("environment variable " + ref.location()
                            + " is not set; set it in the environment of the process that runs remedy");
                }
                yield text;
            }
            case FILE -> read(ref.location());
        };
        if (value.isEmpty()) {
            throw new RemedyException("the secret " + ref + " is empty; put the secret there");
        }
        return Secret.of(value);
    }

    private static String read(String location) {
        String text;
        try {
            text = Files.readString(Path.of(location), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            // The exception's message names the path only; the file's content is never read into it.
            throw new RemedyException("cannot read the secret file " + location + " (" + e.getClass().getSimpleName()
                    + "); check that it exists, is readable by remedy and is UTF-8 text", e);
        }
        if (text.endsWith("\r\n")) {
            return text.substring(0, text.length() - 2);
        }
        return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    }
}
