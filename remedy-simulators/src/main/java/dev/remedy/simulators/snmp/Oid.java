package dev.remedy.simulators.snmp;

import java.util.Arrays;
import java.util.Objects;

/**
 * An SNMP object identifier, such as {@code .1.3.6.1.2.1.1.2.0}. Ordered as SNMP orders a walk (GETNEXT): arc by
 * arc, numerically, and a prefix before everything below it. Immutable.
 */
public final class Oid implements Comparable<Oid> {

    private final int[] arcs;

    private Oid(int[] arcs) {
        this.arcs = arcs;
    }

    /**
     * The identifier with these arcs.
     *
     * @throws IllegalArgumentException if there is no arc or an arc is negative
     */
    public static Oid of(int... arcs) {
        if (arcs.length == 0) {
            throw new IllegalArgumentException("an OID has at least one arc");
        }
        for (int arc : arcs) {
            if (arc < 0) {
                throw new IllegalArgumentException("OID arcs are not negative: " + Arrays.toString(arcs));
            }
        }
        return new Oid(arcs.clone());
    }

    /**
     * Parses dotted decimal, with or without the leading dot ({@code .1.3.6.1} or {@code 1.3.6.1}).
     *
     * @throws IllegalArgumentException if {@code text} is not dotted decimal, naming it
     */
    public static Oid parse(String text) {
        Objects.requireNonNull(text, "text");
        String digits = text.startsWith(".") ? text.substring(1) : text;
        if (digits.isEmpty() || !digits.matches("\\d{1,10}(\\.\\d{1,10})*")) {
            throw new IllegalArgumentException("'" + text + "' is not an OID in dotted decimal such as .1.3.6.1.2.1");
        }
        String[] parts = digits.split("\\.");
        int[] arcs = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            long arc = Long.parseLong(parts[i]);
            if (arc > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("OID '" + text + "' has an arc above " + Integer.MAX_VALUE);
            }
            arcs[i] = (int) arc;
        }
        return new Oid(arcs);
    }

    /** This identifier followed by {@code more} arcs (a column and an index: {@code column.child(3)}). */
    public Oid child(int... more) {
        int[] joined = Arrays.copyOf(arcs, arcs.length + more.length);
        System.arraycopy(more, 0, joined, arcs.length, more.length);
        return of(joined);
    }

    /** Whether this identifier is {@code prefix} or lies below it. */
    public boolean startsWith(Oid prefix) {
        return prefix.arcs.length <= arcs.length
                && Arrays.equals(arcs, 0, prefix.arcs.length, prefix.arcs, 0, prefix.arcs.length);
    }

    /** How many arcs. */
    public int size() {
        return arcs.length;
    }

    /** The arc at {@code index} (0 is the first). */
    public int arc(int index) {
        return arcs[index];
    }

    /** The last arc (the index of a one-column-index table row). */
    public int last() {
        return arcs[arcs.length - 1];
    }

    @Override
    public int compareTo(Oid other) {
        return Arrays.compare(arcs, other.arcs);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Oid oid && Arrays.equals(arcs, oid.arcs);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(arcs);
    }

    /** Dotted decimal with the leading dot, as net-snmp prints with {@code -On}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int arc : arcs) {
            text.append('.').append(arc);
        }
        return text.toString();
    }
}
