package dev.remedy.spi;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The actions an agent can be asked to perform, named as the ClusterLabs fence agents name them.
 *
 * <p>{@link #code()} is the stable, persisted form; never rely on {@link #ordinal()}.
 */
public enum FenceAction {
    /** Power the target on (or un-fence a fabric port). */
    ON("on"),
    /** Power the target off (or isolate a fabric port); succeeds only once OFF is read back. */
    OFF("off"),
    /** OFF confirmed by a status read, then ON. A reset without an observed OFF is not a reboot. */
    REBOOT("reboot"),
    /** Read the power state without changing it. */
    STATUS("status"),
    /** List the plugs (outlets, systems, ports) the device controls. */
    LIST("list"),
    /** Check that the device is reachable and the credentials work, without changing power. */
    MONITOR("monitor");

    private final String code;

    FenceAction(String code) {
        this.code = code;
    }

    /** The stable lower-case name used in configuration, persisted records and on the command line. */
    public String code() {
        return code;
    }

    /** Whether this action may change the power state of the target. */
    public boolean changesPower() {
        return this == ON || this == OFF || this == REBOOT;
    }

    /** Finds an action by its code, ignoring case ({@code "off"}, {@code "OFF"}). */
    public static Optional<FenceAction> fromCode(String code) {
        if (code == null) {
            return Optional.empty();
        }
        String wanted = code.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(a -> a.code.equals(wanted)).findFirst();
    }
}
