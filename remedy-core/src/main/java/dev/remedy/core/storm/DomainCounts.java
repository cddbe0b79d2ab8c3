package dev.remedy.core.storm;

import java.util.Objects;

/**
 * The nodes of one failure domain (one value of the failure-domain label) in a pool.
 *
 * @param value      the label value ({@code rack-3})
 * @param total      how many nodes of the pool are in the domain
 * @param notHealthy how many of them are not healthy (unhealthy or remediating)
 */
public record DomainCounts(String value, int total, int notHealthy) {

    /** Validates that {@code 0 <= notHealthy <= total}. */
    public DomainCounts {
        Objects.requireNonNull(value, "value");
        if (total < 0 || notHealthy < 0 || notHealthy > total) {
            throw new IllegalArgumentException("domain " + value + ": need 0 <= notHealthy <= total, got "
                    + notHealthy + " of " + total);
        }
    }
}
