package dev.remedy.core.topology;

import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.Secret;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Reads the value behind a {@link SecretRef}. {@link FenceConfiguration#planFor} calls it for every secret
 * parameter of the methods a node's plan uses, on the caller's thread.
 *
 * <p>Implementations may block (reading a file); they report a secret they cannot read by throwing a
 * {@link RemedyException} whose message names the reference and what to do, never a value.
 */
@FunctionalInterface
public interface SecretResolver {

    /**
     * The secret behind {@code ref}.
     *
     * @throws RemedyException if it cannot be read, with a message that names {@code ref} and no secret value
     */
    Secret resolve(SecretRef ref);

    /**
     * The largest secret file read: 64 KiB, far more than a password, a token or a key passphrase. Resolvers of other
     * sources (a Kubernetes Secret's key) keep to it too.
     */
    int MAX_FILE_BYTES = 64 * 1024;

    /**
     * Reads environment variables of this process and files (UTF-8, one trailing line break removed). An unset
     * variable, an empty value, and a file that cannot be read, is not a regular file (a named pipe or a device,
     * which could block or never end) or is larger than {@link #MAX_FILE_BYTES} are refused. A Kubernetes Secret
     * reference ({@link SecretRef.Kind#SECRET}) is refused with a message saying it needs the operator's resolver.
     */
    static SecretResolver system() {
        return system(System::getenv);
    }

    /**
     * {@link #system()}, with environment variables looked up in {@code environment} (a host that keeps its own
     * environment, or a test).
     */
    static SecretResolver system(Function<String, String> environment) {
        return new SystemSecretResolver(environment);
    }

    /** Resolves exactly the references in {@code secrets} (for tests and for callers that hold secrets already). */
    static SecretResolver of(Map<SecretRef, Secret> secrets) {
        Map<SecretRef, Secret> known = Map.copyOf(secrets);
        return ref -> {
            Secret secret = known.get(Objects.requireNonNull(ref, "ref"));
            if (secret == null) {
                throw new RemedyException("no secret is known for " + ref + "; give it to the secret resolver");
            }
            return secret;
        };
    }
}
