package dev.remedy.core.engine;

import dev.remedy.core.flow.Effect;
import dev.remedy.core.flow.FenceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one piece of work gave: events to publish and effects to run once its record is saved, or why the record
 * could not be saved (then nothing happened).
 */
record Step(List<FenceEvent> events, List<Effect> effects, Optional<String> unsaved) {

    static final Step NONE = new Step(List.of(), List.of(), Optional.empty());

    static Step of(List<FenceEvent> events, List<Effect> effects) {
        return new Step(List.copyOf(events), List.copyOf(effects), Optional.empty());
    }

    static Step unsaved(String problem) {
        return new Step(List.of(), List.of(), Optional.of(problem));
    }

    /** This step's events and effects, then {@code next}'s; {@code next} says whether the last save failed. */
    Step plus(Step next) {
        List<FenceEvent> allEvents = new ArrayList<>(events);
        allEvents.addAll(next.events);
        List<Effect> allEffects = new ArrayList<>(effects);
        allEffects.addAll(next.effects);
        return new Step(List.copyOf(allEvents), List.copyOf(allEffects), next.unsaved);
    }
}
