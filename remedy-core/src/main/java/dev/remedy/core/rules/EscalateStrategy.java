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
     * Reads the strategy from a remediation spec in either of two forms; absent fields take their defaults:
     * <ul>
     *   <li>flat, as the Cluster API external remediation design writes it:
     *       {@code {strategy: escalate, deleteAfterRetries: 10, powerOnTimeoutSeconds: 600,
     *       powerOffTimeoutSeconds: 120}};</li>
     *   <li>nested: {@code {strategy: {type: escalate, deleteAfterRetries: 1, powerOffTimeoutSeconds: 300,
     *       powerOnTimeoutSeconds: 600}}}.</li>
     * </ul>
     *
     * @param spec the remediation object's (or template's) spec
     * @return the strategy
     * @throws IllegalArgumentException listing every problem found, each naming its field
     */
    public static EscalateStrategy fromSpec(Map<String, Object> spec) {
        Objects.requireNonNull(spec, "spec");
        List<String> problems = new ArrayList<>();
        Object raw = spec.get("strategy");
        Map<?, ?> fields;
        String prefix;
        if (raw instanceof String flat) {
            if (!TYPE.equals(flat)) {
                problems.add("strategy: must be '" + TYPE + "', was " + flat);
            }
            fields = spec;
            prefix = "";
        } else if (raw instanceof Map<?, ?> nested) {
            if (!TYPE.equals(nested.get("type"))) {
                problems.add("strategy.type: must be '" + TYPE + "', was " + nested.get("type"));
            }
            fields = nested;
            prefix = "strategy.";
        } else {
            throw new IllegalArgumentException("strategy: missing or neither text nor a map; expected strategy: "
                    + TYPE + " with deleteAfterRetries, powerOffTimeoutSeconds and powerOnTimeoutSeconds beside it, "
                    + "or strategy: {type: " + TYPE + ", ...}");
        }
        String selector = prefix.isEmpty() ? "strategy" : "type";
        for (Object key : fields.keySet()) {
            if (!List.of(selector, "deleteAfterRetries", "powerOffTimeoutSeconds", "powerOnTimeoutSeconds")
                    .contains(key)) {
                problems.add(prefix + key + ": unknown field; known are " + selector + ", deleteAfterRetries,"
                        + " powerOffTimeoutSeconds, powerOnTimeoutSeconds");
            }
        }
        long retries = integer(fields, prefix, "deleteAfterRetries", DEFAULT_DELETE_AFTER_RETRIES, 0, problems);
        long off = integer(fields, prefix, "powerOffTimeoutSeconds", DEFAULT_POWER_OFF_TIMEOUT.toSeconds(), 1,
                problems);
        long on = integer(fields, prefix, "powerOnTimeoutSeconds", DEFAULT_POWER_ON_TIMEOUT.toSeconds(), 1, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid escalate strategy: " + String.join("; ", problems));
        }
        return new EscalateStrategy((int) retries, Duration.ofSeconds(off), Duration.ofSeconds(on));
    }

    private static long integer(Map<?, ?> strategy, String prefix, String field, long dflt, long min,
                                List<String> problems) {
        Object v = strategy.get(field);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte)) {
            problems.add(prefix + field + ": must be a whole number, was " + v);
            return dflt;
        }
        long n = ((Number) v).longValue();
        if (n < min || n > Integer.MAX_VALUE) {
            problems.add(prefix + field + ": must be between " + min + " and " + Integer.MAX_VALUE + ", was " + n);
            return dflt;
        }
        return n;
    }
}
