package dev.remedy.fence.snmp.internal.profile;

import dev.remedy.spi.FencingKind;

/** A named SNMP device profile: one table of a device ({@link DeviceProfile}) or a choice between tables. */
public sealed interface Profile permits DeviceProfile, ProfileChoice {

    /** The name the {@code profile} parameter gives. */
    String name();

    /** One line on the device. */
    String description();

    /** Power (outlets) or fabric (ports). */
    FencingKind kind();
}
