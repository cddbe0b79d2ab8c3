package dev.remedy.core.nodeagent;

import java.util.Arrays;

/** What a node agent does when it finds no watchdog device: setting {@code watchdogFallback}. */
public enum WatchdogFallback {
    /** Reboot by writing {@code b} to the sysrq trigger ({@code /proc/sysrq-trigger}) when unhealthy. */
    SOFTWARE_REBOOT("software-reboot"),
    /** Never reset the node; report {@link WatchdogMode#NONE}. */
    NONE("none");

    private final String code;

    WatchdogFallback(String code) {
        this.code = code;
    }

    /** The value in the settings: {@code software-reboot} or {@code none}. */
    public String code() {
        return code;
    }

    /** The fallback of a settings value, if it is one. */
    static java.util.Optional<WatchdogFallback> fromCode(String code) {
        return Arrays.stream(values()).filter(f -> f.code.equals(code)).findFirst();
    }
}
