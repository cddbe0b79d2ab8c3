package dev.remedy.fence.snmp.internal.profile;

import dev.remedy.config.profiles.CatalogProfile;
import dev.remedy.spi.FencingKind;

/** A named SNMP device profile: one table of a device ({@link DeviceProfile}) or a choice between tables. */
public sealed interface Profile extends CatalogProfile permits DeviceProfile, ProfileChoice {

    /** The name the {@code profile} parameter gives. */
    @Override
    String name();

    /** One line on the device. */
    String description();

    /** Power (outlets) or fabric (ports). */
    @Override
    FencingKind kind();
}
