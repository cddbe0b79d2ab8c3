package dev.remedy.core.engine;

import java.util.Objects;

/**
 * A node taint.
 *
 * @param key    the taint key
 * @param value  the taint value
 * @param effect {@code NoSchedule}, {@code PreferNoSchedule} or {@code NoExecute}
 */
public record Taint(String key, String value, String effect) {

    /** Kubernetes' non-graceful node shutdown taint: force-deletes pods and detaches volumes. Only while verified off. */
    public static final Taint OUT_OF_SERVICE = new Taint("node.kubernetes.io/out-of-service", "nodeshutdown", "NoExecute");
    /** remedy's taint that keeps new work off a node under remediation. */
    public static final Taint FENCING = new Taint("remedy.dev/fencing", "true", "NoSchedule");

    /** Validates that every field is present. */
    public Taint {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(effect, "effect");
    }
}
