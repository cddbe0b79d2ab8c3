package dev.remedy.spi.discovery;

import java.util.Objects;

/**
 * A provider that could not be loaded.
 *
 * @param provider the provider class name, or {@code "?"} when the service file named a class that does not load
 * @param reason   why, for users
 * @param error    the underlying error
 */
public record DiscoveryFailure(String provider, String reason, Throwable error) {

    /** Validates that every field is present. */
    public DiscoveryFailure {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(error, "error");
    }
}
