package dev.remedy.fence.kube.store.internal;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.fence.kube.store.AdminTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * {@link AdminTarget} on a {@link FenceEngine}: calls its admin method and collects the {@link FenceEvent.Refused}
 * events the engine publishes for that node on the calling thread during the call.
 */
public final class EngineAdminTarget implements AdminTarget {

    private final FenceEngine engine;
    private final ThreadLocal<Call> current = new ThreadLocal<>();

    /** An adapter on {@code engine}; subscribes one listener to it. */
    public EngineAdminTarget(FenceEngine engine) {
        this.engine = Objects.requireNonNull(engine, "engine");
        engine.subscribe(event -> {
            Call call = current.get();
            if (call != null && event instanceof FenceEvent.Refused refused && refused.node().equals(call.node)) {
                call.refusals.add(refused.reason());
            }
        });
    }

    @Override
    public Reply pause(String node, String actor) {
        return call(node, actor, engine::pause, "paused");
    }

    @Override
    public Reply resume(String node, String actor) {
        return call(node, actor, engine::resume, "resumed");
    }

    @Override
    public Reply forceStop(String node, String actor) {
        return call(node, actor, engine::forceStop, "force-stopped");
    }

    @Override
    public Reply clearError(String node, String actor) {
        return call(node, actor, engine::clearError, "error cleared");
    }

    @Override
    public Reply confirmOff(String node, String actor) {
        return call(node, actor, engine::confirmOff, "power-off confirmed");
    }

    private Reply call(String node, String actor, BiConsumer<String, String> command, String done) {
        Call call = new Call(node);
        current.set(call);
        try {
            command.accept(node, actor);
        } catch (RuntimeException e) {
            return Reply.refused("the engine failed: " + e.getMessage());
        } finally {
            current.remove();
        }
        return call.refusals.isEmpty() ? Reply.accepted(done)
                : Reply.refused(String.join("; ", call.refusals));
    }

    private static final class Call {
        final String node;
        final List<String> refusals = new ArrayList<>();

        Call(String node) {
            this.node = node;
        }
    }
}
