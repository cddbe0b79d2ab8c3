package dev.remedy.core.engine.crash;

import dev.remedy.core.engine.Taint;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One line of a crash campaign's journal: {@code <epoch millis> <pid> <EVENT> <node> key=value...}, values without
 * spaces. A line is appended and forced to disk before the effect it records is acknowledged to the engine.
 *
 * @param millis when it was written (wall clock of the writing process)
 * @param pid    the process that wrote it
 * @param event  what happened
 * @param node   the node concerned, or {@value #NO_NODE}
 * @param fields the details, in writing order
 */
record JournalLine(long millis, long pid, Event event, String node, Map<String, String> fields) {

    /** The node field of lines that concern no node. */
    static final String NO_NODE = "-";

    /** What a line records. */
    enum Event {
        /** An engine process started on the directory (after opening the store): {@code nodes}. */
        START,
        /** The operator's decision started a new flow: {@code decidedAt}, and {@code previous}, the stage of the
         *  node's record before the decision ({@code none} without one). */
        DECIDE,
        /** A power command reached the machine: {@code from} and {@code to} (equal when it was already there). */
        POWER,
        /** The machine's power was read: {@code power}. */
        STATUS,
        /** The node's record as saved on disk, read right before a release: {@code stage}, {@code confirmation}
         *  (a kind, or {@code none}), {@code released}, {@code version}. */
        RECORD,
        /** The node was cordoned. */
        CORDON,
        /** The node was uncordoned. */
        UNCORDON,
        /** A taint was added: {@code key}. */
        TAINT,
        /** A taint was removed: {@code key}. */
        UNTAINT,
        /** The node's pods were force-deleted. */
        DELETE_PODS,
        /** The Node object was deleted. */
        DELETE_NODE,
        /** The Node object was restored. */
        RESTORE_NODE,
        /** Every flow was FINAL; the engine process exits 0. */
        DONE
    }

    /** Validates the fields and keeps their order. */
    JournalLine {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(node, "node");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** Parses a line written by {@link #format()}. */
    static JournalLine parse(String line) {
        String[] parts = line.split(" ");
        if (parts.length < 4) {
            throw new IllegalArgumentException("journal line '" + line + "' has fewer than 4 fields");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 4; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("journal line '" + line + "': '" + parts[i] + "' is not key=value");
            }
            fields.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        try {
            return new JournalLine(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Event.valueOf(parts[2]),
                    parts[3], fields);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("journal line '" + line + "' cannot be read: " + e.getMessage(), e);
        }
    }

    /** The line as written to the journal, without its line break. */
    String format() {
        StringBuilder text = new StringBuilder().append(millis).append(' ').append(pid).append(' ').append(event)
                .append(' ').append(node);
        fields.forEach((key, value) -> text.append(' ').append(key).append('=').append(value));
        return text.toString();
    }

    /** The value of {@code key}. */
    String field(String key) {
        String value = fields.get(key);
        if (value == null) {
            throw new IllegalArgumentException("journal line '" + format() + "' has no field " + key);
        }
        return value;
    }

    /** Whether the line releases the node's workloads (out-of-service taint, pods or Node object deleted). */
    boolean isRelease() {
        return event == Event.DELETE_PODS || event == Event.DELETE_NODE
                || event == Event.TAINT && Taint.OUT_OF_SERVICE.key().equals(fields.get("key"));
    }

    @Override
    public String toString() {
        return format();
    }
}
