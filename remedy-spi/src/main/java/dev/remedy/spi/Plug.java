package dev.remedy.spi;

import java.util.Objects;

/**
 * One plug (outlet, system, port) a device controls, as reported by {@link FenceAction#LIST}.
 *
 * @param id    the value to pass as the {@code plug} parameter
 * @param alias a human name the device gives it, or empty
 * @param power its power state, {@link PowerState#UNKNOWN} if the listing does not say
 */
public record Plug(String id, String alias, PowerState power) {

    /** Validates that every field is present. */
    public Plug {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(alias, "alias");
        Objects.requireNonNull(power, "power");
    }
}
