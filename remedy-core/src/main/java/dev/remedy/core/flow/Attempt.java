package dev.remedy.core.flow;

import dev.remedy.spi.FenceStatus;
import java.time.Instant;
import java.util.Objects;

/**
 * One finished operation, for the record's attempt log.
 *
 * @param at        when it finished
 * @param operation what ran ({@code power_management L1 bmc off}, {@code cluster release_workloads})
 * @param result    how it ended
 * @param detail    the outcome detail
 */
public record Attempt(Instant at, String operation, FenceStatus result, String detail) {

    /** Validates that every field is present. */
    public Attempt {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(detail, "detail");
    }
}
