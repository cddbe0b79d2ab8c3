package dev.remedy.core.flow;

import java.time.Instant;
import java.util.Objects;

/**
 * One finished operation, for the record's attempt log.
 *
 * @param at        when it finished
 * @param operation what ran ({@code power_management L1 bmc off}, {@code cluster release_workloads})
 * @param result    the outcome status ({@code SUCCEEDED}, {@code TIMED_OUT}, …)
 * @param detail    the outcome detail
 */
public record Attempt(Instant at, String operation, String result, String detail) {

    /** Validates that every field is present. */
    public Attempt {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(detail, "detail");
    }
}
