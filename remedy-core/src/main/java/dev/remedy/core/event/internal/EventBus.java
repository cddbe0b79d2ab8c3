package dev.remedy.core.event.internal;

import dev.remedy.core.event.FenceEventListener;
import dev.remedy.core.flow.FenceEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Delivers events to listeners, isolating each: a listener that throws is logged and the others still run. */
public final class EventBus {

    private static final Logger LOG = LoggerFactory.getLogger(EventBus.class);

    private final List<FenceEventListener> listeners = new CopyOnWriteArrayList<>();

    /** Adds a listener. */
    public void subscribe(FenceEventListener listener) {
        listeners.add(listener);
    }

    /** Removes a listener. */
    public void unsubscribe(FenceEventListener listener) {
        listeners.remove(listener);
    }

    /** Delivers {@code event} to every listener. */
    public void publish(FenceEvent event) {
        for (FenceEventListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                LOG.warn("fence event listener {} failed on {}; ignored", listener, event.getClass().getSimpleName(), e);
            }
        }
    }
}
