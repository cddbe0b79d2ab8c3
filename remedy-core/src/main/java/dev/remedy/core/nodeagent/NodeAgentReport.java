package dev.remedy.core.nodeagent;

import dev.remedy.spi.config.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a node agent last reported in its Lease ({@link NodeAgentContract}), as the operator reads it: the one parser
 * of the annotations the agents write.
 *
 * @param node           the Lease's holder, the agent's node
 * @param mode           how the agent can reset its node
 * @param deviceTimeout  the watchdog device's timeout, when armed and reported
 * @param fingerprint    the fingerprint of the settings the agent runs with
 * @param renewed        when the agent last found its node healthy through the API server
 */
public record NodeAgentReport(String node, WatchdogMode mode, Optional<Duration> deviceTimeout, String fingerprint,
        Instant renewed) {

    /** Validates the fields. */
    public NodeAgentReport {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(deviceTimeout, "deviceTimeout");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(renewed, "renewed");
    }

    /**
     * Reads a Lease's values.
     *
     * @param holder      {@code spec.holderIdentity}
     * @param annotations the Lease's annotations
     * @param renewTime   {@code spec.renewTime}
     * @return the report, or empty when the Lease lacks the holder, the renew time or a valid watchdog mode, or its
     *         watchdog timeout is not a duration (an agent that reported nothing usable has reported nothing: an
     *         unreadable timeout must not let the operator wait less than the device)
     */
    public static Optional<NodeAgentReport> read(String holder, Map<String, String> annotations, Instant renewTime) {
        if (holder == null || holder.isBlank() || renewTime == null || annotations == null) {
            return Optional.empty();
        }
        WatchdogMode mode;
        try {
            mode = WatchdogMode.fromCode(annotations.getOrDefault(NodeAgentContract.WATCHDOG_ANNOTATION, ""));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        String timeoutText = annotations.get(NodeAgentContract.WATCHDOG_TIMEOUT_ANNOTATION);
        Optional<Duration> timeout = timeoutText == null ? Optional.empty() : duration(timeoutText);
        if (timeoutText != null && timeout.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new NodeAgentReport(holder, mode, timeout,
                annotations.getOrDefault(NodeAgentContract.SETTINGS_ANNOTATION, ""), renewTime));
    }

    private static Optional<Duration> duration(String text) {
        try {
            return Optional.of(Durations.parse(text, Duration.ofDays(1)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the agent reported an armed watchdog within {@code window} before {@code now}: the condition for the
     * operator to assume the node reset itself.
     */
    public boolean armedWithin(Instant now, Duration window) {
        return mode == WatchdogMode.ARMED && !renewed.isAfter(now) && !renewed.plus(window).isBefore(now);
    }

    /** Whether the agent runs with {@code settings} (the same fingerprint). */
    public boolean runs(NodeAgentSettings settings) {
        return fingerprint.equals(settings.fingerprint());
    }

    /**
     * The watchdog timeout the operator must wait for: the longer of the device's (when reported) and the settings'.
     */
    public Duration watchdogTimeout(NodeAgentSettings settings) {
        Duration configured = settings.timings().watchdogTimeout();
        return deviceTimeout.filter(d -> d.compareTo(configured) > 0).orElse(configured);
    }
}
