package dev.remedy.core.storm;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cluster API's {@code unhealthyRange}: remediation is allowed only while the number of nodes not healthy lies
 * within {@code [min-max]}, both ends included.
 *
 * @param min the fewest not-healthy nodes for which remediation is allowed
 * @param max the most
 */
public record UnhealthyRange(int min, int max) {

    private static final Pattern FORM = Pattern.compile("\\[\\s*(\\d+)\\s*-\\s*(\\d+)\\s*]");

    /** Validates the bounds. */
    public UnhealthyRange {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("unhealthyRange [" + min + "-" + max + "] needs 0 <= min <= max");
        }
    }

    /**
     * Parses {@code "[3-5]"}.
     *
     * @throws IllegalArgumentException naming the text, if it is not of that form
     */
    public static UnhealthyRange parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not an unhealthy range; write it as \"[3-5]\"");
        }
        return new UnhealthyRange(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** Whether {@code notHealthy} nodes lie within the range. */
    public boolean allows(int notHealthy) {
        return notHealthy >= min && notHealthy <= max;
    }

    @Override
    public String toString() {
        return "[" + min + "-" + max + "]";
    }
}
