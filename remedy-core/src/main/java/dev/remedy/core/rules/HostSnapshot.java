package dev.remedy.core.rules;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the reboot-request rules read from one bare-metal host.
 *
 * @param annotations        all the host's annotations (others than reboot requests are ignored); copied
 * @param online             the host's desired power state as its owner set it ({@code spec.online})
 * @param provisioningState  the host's provisioning state
 * @param poweredOn          whether the host reports power on ({@code status.poweredOn})
 * @param lastPoweredOn      when the host was last seen to power on ({@code status.lastPoweredOn})
 * @param pendingRebootSince when the operator first noticed the current reboot request
 *                           ({@code status.pendingRebootSince})
 */
public record HostSnapshot(Map<String, String> annotations, boolean online, ProvisioningState provisioningState,
        boolean poweredOn, Optional<Instant> lastPoweredOn, Optional<Instant> pendingRebootSince) {

    /** Validates the fields and copies the annotations. */
    public HostSnapshot {
        Objects.requireNonNull(annotations, "annotations");
        annotations.forEach((k, v) -> {
            Objects.requireNonNull(k, "annotations: a key is null");
            Objects.requireNonNull(v, () -> "annotations: the value of " + k + " is null (use \"\" for no value)");
        });
        annotations = Map.copyOf(annotations);
        Objects.requireNonNull(provisioningState, "provisioningState");
        Objects.requireNonNull(lastPoweredOn, "lastPoweredOn");
        Objects.requireNonNull(pendingRebootSince, "pendingRebootSince");
    }
}
