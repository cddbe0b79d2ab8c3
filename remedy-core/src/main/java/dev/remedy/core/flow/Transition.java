package dev.remedy.core.flow;

import java.util.List;
import java.util.Objects;

/**
 * The result of applying one observation: the next record, the effects to run once it is persisted, and the
 * events to publish.
 *
 * @param record  the next record (equal to the input when nothing changed)
 * @param effects what to run, in order
 * @param events  what happened
 */
public record Transition(NodeFence record, List<Effect> effects, List<FenceEvent> events) {

    /** Validates and copies. */
    public Transition {
        Objects.requireNonNull(record, "record");
        effects = List.copyOf(effects);
        events = List.copyOf(events);
    }
}
