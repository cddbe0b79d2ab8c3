package dev.remedy.core.rules;

import java.util.Objects;
import java.util.Optional;

/**
 * One reboot request read from a host annotation.
 *
 * @param annotation the annotation's full name
 * @param key        the client key of a {@code reboot.metal3.io/{key}} request; empty for the unkeyed request
 * @param mode       the requested mode ({@link RebootMode#SOFT} when the value is empty or malformed)
 */
public record RebootRequest(String annotation, Optional<String> key, RebootMode mode) {

    /** Validates the fields. */
    public RebootRequest {
        Objects.requireNonNull(annotation, "annotation");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(mode, "mode");
        if (key.isPresent() && key.get().isEmpty()) {
            throw new IllegalArgumentException("key: must not be empty; use Optional.empty() for the unkeyed request");
        }
    }

    /**
     * Whether this is a keyed request, which holds the host off until its client removes it.
     *
     * @return true for {@code reboot.metal3.io/{key}}
     */
    public boolean keyed() {
        return key.isPresent();
    }
}
