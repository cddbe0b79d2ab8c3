package dev.remedy.core.nodeagent;

import java.util.Arrays;

/**
 * How a node agent can reset its node, as it reports it in the {@link NodeAgentContract#WATCHDOG_ANNOTATION}
 * annotation of its Lease. The operator assumes a reset after the safe time only for {@link #ARMED}.
 */
public enum WatchdogMode {
    /** A watchdog device is open and fed: a node whose agent stops feeding it (decided or hung) is reset. */
    ARMED("armed"),
    /**
     * No watchdog device: the agent reboots the node itself through {@code /proc/sysrq-trigger} when it decides it is
     * unhealthy. A hung agent or a hung kernel is <em>not</em> reset.
     */
    SOFTWARE_REBOOT("software-reboot"),
    /** No watchdog and no software reboot: the node is never reset by its agent. */
    NONE("none");

    private final String code;

    WatchdogMode(String code) {
        this.code = code;
    }

    /** The value written in the annotation: {@code armed}, {@code software-reboot} or {@code none}. */
    public String code() {
        return code;
    }

    /**
     * The mode of an annotation value.
     *
     * @throws IllegalArgumentException if {@code code} is none of the three
     */
    public static WatchdogMode fromCode(String code) {
        return Arrays.stream(values()).filter(m -> m.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown watchdog mode '" + code
                        + "'; the modes are armed, software-reboot, none"));
    }
}
