package dev.remedy.core.topology;

import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.Secret;
import java.util.Map;
import java.util.Objects;

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
     * Reads environment variables of this process and files (UTF-8, one trailing line break removed). An unset
     * variable, an unreadable file and an empty value are refused.
     */
    static SecretResolver system() {
        return new SystemSecretResolver(System::getenv);
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
