package dev.remedy.core.rules;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code escalate} remediation strategy: power-cycle the host, retry the cycle, and delete the machine (so that
 * it is replaced) once the retries are used up. A cycle that cannot even power the host off fails the remediation
 * instead: a node is never deleted before its host was verified off.
 *
 * @param deleteAfterRetries how many power cycles are retried after the first failed one before the machine is
 *                           deleted; 0 deletes after the first failed cycle
 * @param powerOffTimeout    how long a cycle waits for the host to report off; positive
 * @param powerOnTimeout     how long a cycle waits, after power is restored, for the node to be ready; positive
 */
public record EscalateStrategy(int deleteAfterRetries, Duration powerOffTimeout, Duration powerOnTimeout) {

    /** The strategy's type name in a template spec. */
    public static final String TYPE = "escalate";
    /** Default of {@link #deleteAfterRetries()}. */
    public static final int DEFAULT_DELETE_AFTER_RETRIES = 1;
    /** Default of {@link #powerOffTimeout()}. */
    public static final Duration DEFAULT_POWER_OFF_TIMEOUT = Duration.ofSeconds(300);
    /** Default of {@link #powerOnTimeout()}. */
    public static final Duration DEFAULT_POWER_ON_TIMEOUT = Duration.ofSeconds(600);

    /** Validates the fields. */
    public EscalateStrategy {
        if (deleteAfterRetries < 0) {
            throw new IllegalArgumentException("deleteAfterRetries: must be 0 or more, was " + deleteAfterRetries);
        }
        requirePositive(powerOffTimeout, "powerOffTimeout");
        requirePositive(powerOnTimeout, "powerOnTimeout");
    }

    private static void requirePositive(Duration d, String field) {
        Objects.requireNonNull(d, field);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(field + ": must be positive, was " + d);
        }
    }

    /**
     * The defaults: one retry, 300 s to power off, 600 s for the node to be ready.
     *
     * @return the default strategy
     */
    public static EscalateStrategy ofDefaults() {
        return new EscalateStrategy(DEFAULT_DELETE_AFTER_RETRIES, DEFAULT_POWER_OFF_TIMEOUT, DEFAULT_POWER_ON_TIMEOUT);
    }

    /**
     * Reads the strategy from a remediation spec of the form
     * {@code {strategy: {type: escalate, deleteAfterRetries: 1, powerOffTimeoutSeconds: 300, powerOnTimeoutSeconds: 600}}};
     * absent fields take their defaults.
     *
     * @param spec the remediation object's (or template's) spec
     * @return the strategy
     * @throws IllegalArgumentException listing every problem found, each naming its field
     */
    public static EscalateStrategy fromSpec(Map<String, Object> spec) {
        Objects.requireNonNull(spec, "spec");
        List<String> problems = new ArrayList<>();
        Object raw = spec.get("strategy");
        if (!(raw instanceof Map<?, ?> strategy)) {
            throw new IllegalArgumentException("strategy: missing or not a map; expected {type: " + TYPE + ", ...}");
        }
        Object type = strategy.get("type");
        if (!TYPE.equals(type)) {
            problems.add("strategy.type: must be '" + TYPE + "', was " + type);
        }
        for (Object key : strategy.keySet()) {
            if (!List.of("type", "deleteAfterRetries", "powerOffTimeoutSeconds", "powerOnTimeoutSeconds")
                    .contains(key)) {
                problems.add("strategy." + key + ": unknown field; known are type, deleteAfterRetries,"
                        + " powerOffTimeoutSeconds, powerOnTimeoutSeconds");
            }
        }
        long retries = integer(strategy, "deleteAfterRetries", DEFAULT_DELETE_AFTER_RETRIES, 0, problems);
        long off = integer(strategy, "powerOffTimeoutSeconds", DEFAULT_POWER_OFF_TIMEOUT.toSeconds(), 1, problems);
        long on = integer(strategy, "powerOnTimeoutSeconds", DEFAULT_POWER_ON_TIMEOUT.toSeconds(), 1, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid escalate strategy: " + String.join("; ", problems));
        }
        return new EscalateStrategy((int) retries, Duration.ofSeconds(off), Duration.ofSeconds(on));
    }

    private static long integer(Map<?, ?> strategy, String field, long dflt, long min, List<String> problems) {
        Object v = strategy.get(field);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte)) {
            problems.add("strategy." + field + ": must be a whole number, was " + v);
            return dflt;
        }
        long n = ((Number) v).longValue();
        if (n < min || n > Integer.MAX_VALUE) {
            problems.add("strategy." + field + ": must be between " + min + " and " + Integer.MAX_VALUE + ", was " + n);
            return dflt;
        }
        return n;
    }
}
