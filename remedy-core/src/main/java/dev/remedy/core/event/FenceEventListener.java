package dev.remedy.core.event;

import dev.remedy.core.flow.FenceEvent;
/** Receives fence events. Called on the engine's threads; exceptions are logged and change nothing. */
@FunctionalInterface
public interface FenceEventListener {

    /** One event. */
    void onEvent(FenceEvent event);
}
