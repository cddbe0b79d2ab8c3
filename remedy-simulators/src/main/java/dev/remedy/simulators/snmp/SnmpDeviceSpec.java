package dev.remedy.simulators.snmp;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What an emulated device is: its name, its kind (which MIB it speaks), how many outlets or ports it has and how
 * long its own reboot keeps an outlet off.
 *
 * @param name a name for tests and the state file: letters, digits and {@code ._-}
 * @param kind the device's kind
 * @param outlets how many outlets (ports, for a switch), 1 to 1024
 * @param rebootDelay how long the device's reboot keeps an outlet off (also the delay of its delayed commands)
 */
public record SnmpDeviceSpec(String name, SnmpDeviceKind kind, int outlets, Duration rebootDelay) {

    /** The reboot delay of {@link #of}: APC's default reboot duration. */
    public static final Duration DEFAULT_REBOOT_DELAY = Duration.ofSeconds(5);

    /** The most outlets or ports a device may have. */
    public static final int MAX_OUTLETS = 1024;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /**
     * Checks every field.
     *
     * @throws IllegalArgumentException naming the field that is wrong and what it may be
     */
    public SnmpDeviceSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(rebootDelay, "rebootDelay");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("device name '" + name + "' must be 1 to 64 letters, digits or ._-");
        }
        if (outlets < 1 || outlets > MAX_OUTLETS) {
            throw new IllegalArgumentException("device " + name + " must have 1 to " + MAX_OUTLETS
                    + " outlets, not " + outlets);
        }
        if (rebootDelay.isNegative()) {
            throw new IllegalArgumentException("device " + name + ": reboot delay " + rebootDelay
                    + " must not be negative");
        }
    }

    /** A device with {@link #DEFAULT_REBOOT_DELAY}. */
    public static SnmpDeviceSpec of(String name, SnmpDeviceKind kind, int outlets) {
        return new SnmpDeviceSpec(name, kind, outlets, DEFAULT_REBOOT_DELAY);
    }

    /** This device with another reboot delay. */
    public SnmpDeviceSpec withRebootDelay(Duration delay) {
        return new SnmpDeviceSpec(name, kind, outlets, delay);
    }
}
