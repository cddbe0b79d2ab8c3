package dev.remedy.fence.kube.store;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.fence.kube.store.internal.EngineAdminTarget;
import java.util.Objects;

/**
 * What {@link AdminAnnotations} gives admin commands to: the admin methods of {@link FenceEngine}, each telling
 * whether the command was refused. {@link #of(FenceEngine)} adapts an engine; tests use a fake.
 */
public interface AdminTarget {

    /** Stops starting operations for {@code node} until resumed. */
    Reply pause(String node, String actor);

    /** Resumes the paused flow of {@code node}. */
    Reply resume(String node, String actor);

    /** Ends the flow of {@code node} now. */
    Reply forceStop(String node, String actor);

    /** Closes the flow of {@code node} that gave up in ERROR. */
    Reply clearError(String node, String actor);

    /** Records {@code actor}'s statement that {@code node} is powered off. */
    Reply confirmOff(String node, String actor);

    /**
     * {@code engine}'s admin methods; a command is refused when the engine publishes a {@code FenceEvent.Refused}
     * for the node while handling it (the engine does so on the calling thread). Create one per engine: each
     * subscribes a listener to it.
     */
    static AdminTarget of(FenceEngine engine) {
        return new EngineAdminTarget(engine);
    }

    /**
     * The answer to one command.
     *
     * @param refused whether the target refused it
     * @param detail  what was done, or why it was refused, for people
     */
    record Reply(boolean refused, String detail) {

        /** Validates that the detail is present. */
        public Reply {
            Objects.requireNonNull(detail, "detail");
        }

        /** The command was taken. */
        public static Reply accepted(String detail) {
            return new Reply(false, detail);
        }

        /** The command was refused, with why. */
        public static Reply refused(String why) {
            return new Reply(true, why);
        }
    }
}
