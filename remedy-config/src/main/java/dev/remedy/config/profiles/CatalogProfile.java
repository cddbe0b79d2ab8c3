package dev.remedy.config.profiles;

import dev.remedy.spi.FencingKind;

/** A profile a {@link Catalog} holds: a device's description as data, found by its name. */
public interface CatalogProfile {

    /** The name the {@code profile} parameter gives. */
    String name();

    /** The kind of fencing the profile does, which must be the agent's. */
    FencingKind kind();
}
