package dev.remedy.core.storm;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A number of nodes given as a count ({@code "3"}) or as a whole percentage of the pool ({@code "40%"}).
 *
 * <p>Rounding of a percentage is explicit, because the two anchors differ:
 * <ul>
 *   <li>{@link #minHealthyNodes(int)} rounds <em>up</em> (medik8s Node Healthcheck {@code minHealthy}): with
 *       51 % of 3 nodes, 2 nodes must be healthy (1.53 &rarr; 2).</li>
 *   <li>{@link #maxUnhealthyNodes(int)} rounds <em>down</em> (Cluster API MachineHealthCheck
 *       {@code maxUnhealthy}): with 40 % of 4 nodes, 1 node may be unhealthy (1.6 &rarr; 1).</li>
 * </ul>
 * Both directions are the conservative one: they never allow more unhealthy nodes than the percentage says.
 * A count is used as is, never capped by the pool size: {@code minHealthy 5} in a pool of 3 can never be met.
 *
 * @param value the count, or the percentage (0..100)
 * @param unit  whether {@code value} is a count of nodes or a percentage
 */
public record Threshold(int value, Unit unit) {

    private static final Pattern SYNTAX = Pattern.compile("[0-9]{1,9}%?");

    /** What a threshold's value counts. */
    public enum Unit {
        /** A number of nodes. */
        NODES,
        /** A whole percentage of the pool's nodes. */
        PERCENT
    }

    /** How a percentage of a pool becomes a whole number of nodes. */
    public enum Rounding {
        /** Towards more nodes: {@code ceil(total * percent / 100)}. */
        UP,
        /** Towards fewer nodes: {@code floor(total * percent / 100)}. */
        DOWN
    }

    /** Validates that the value is not negative and a percentage is at most 100. */
    public Threshold {
        Objects.requireNonNull(unit, "unit");
        if (value < 0) {
            throw new IllegalArgumentException("a threshold must not be negative, got " + value);
        }
        if (unit == Unit.PERCENT && value > 100) {
            throw new IllegalArgumentException("a threshold percentage must be within 0..100, got " + value + "%");
        }
    }

    /** A count of nodes. */
    public static Threshold nodes(int count) {
        return new Threshold(count, Unit.NODES);
    }

    /** A whole percentage (0..100) of the pool. */
    public static Threshold percent(int percent) {
        return new Threshold(percent, Unit.PERCENT);
    }

    /**
     * Parses {@code "3"} (a count) or {@code "40%"} (a whole percentage, 0..100). Nothing else is accepted: no
     * blanks, signs, decimals or units.
     *
     * @throws IllegalArgumentException naming the text when it is not one of those forms
     */
    public static Threshold parse(String text) {
        Objects.requireNonNull(text, "threshold text");
        if (!SYNTAX.matcher(text).matches()) {
            throw new IllegalArgumentException("invalid threshold \"" + text + "\": expected a node count such as "
                    + "\"3\" or a whole percentage such as \"40%\"");
        }
        boolean percent = text.endsWith("%");
        int value = Integer.parseInt(percent ? text.substring(0, text.length() - 1) : text);
        if (percent && value > 100) {
            throw new IllegalArgumentException("invalid threshold \"" + text + "\": a percentage must be within 0..100");
        }
        return new Threshold(value, percent ? Unit.PERCENT : Unit.NODES);
    }

    /** Whether this is a percentage. */
    public boolean isPercent() {
        return unit == Unit.PERCENT;
    }

    /**
     * This threshold in nodes for a pool of {@code total} nodes; a count is returned as is, a percentage is
     * rounded as asked.
     *
     * @throws IllegalArgumentException if {@code total} is negative
     */
    public int nodesFor(int total, Rounding rounding) {
        Objects.requireNonNull(rounding, "rounding");
        if (total < 0) {
            throw new IllegalArgumentException("a pool size must not be negative, got " + total);
        }
        if (unit == Unit.NODES) {
            return value;
        }
        long scaled = (long) total * value;
        return (int) (rounding == Rounding.UP ? (scaled + 99) / 100 : scaled / 100);
    }

    /** How many of {@code total} nodes must be healthy: a percentage rounds up (medik8s). */
    public int minHealthyNodes(int total) {
        return nodesFor(total, Rounding.UP);
    }

    /** How many of {@code total} nodes may be unhealthy: a percentage rounds down (Cluster API). */
    public int maxUnhealthyNodes(int total) {
        return nodesFor(total, Rounding.DOWN);
    }

    /** The text form, {@code "3"} or {@code "40%"}, which {@link #parse(String)} reads back. */
    @Override
    public String toString() {
        return unit == Unit.PERCENT ? value + "%" : Integer.toString(value);
    }
}
