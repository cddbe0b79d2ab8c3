package dev.remedy.core.flow;

import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.util.Objects;
import java.util.Optional;
import java.time.Instant;

/** What the flow learns: time passing, the node's health, an operation's result, an admin's command. */
public sealed interface Observation {

    /** Time passed; deadlines and waits are checked. */
    record Tick() implements Observation {
    }

    /**
     * The node's readiness as the cluster reports it.
     *
     * @param ready    whether the node is Ready
     * @param bootedAt when the node last booted, if known
     */
    record Readiness(boolean ready, Optional<Instant> bootedAt) implements Observation {
        /** Validates the fields. */
        public Readiness {
            Objects.requireNonNull(bootedAt, "bootedAt");
        }
    }

    /**
     * The result of the operation in flight.
     *
     * @param operationId the operation's id; results of other operations are ignored
     * @param status      how it ended
     * @param power       the power state read, for agent operations
     * @param detail      what happened
     */
    record Completed(String operationId, FenceStatus status, PowerState power, String detail) implements Observation {
        /** Validates the fields. */
        public Completed {
            Objects.requireNonNull(operationId, "operationId");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(power, "power");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /** The engine restarted from its store: an operation in flight must be issued again. */
    record Recovered() implements Observation {
    }

    /**
     * An administrator's command.
     *
     * @param command what to do
     * @param actor   who asked, for the record
     */
    record Admin(AdminCommand command, String actor) implements Observation {
        /** Validates the fields. */
        public Admin {
            Objects.requireNonNull(command, "command");
            Objects.requireNonNull(actor, "actor");
        }
    }

    /** What an administrator can ask of a flow. */
    enum AdminCommand {
        /** Start no new operation until resumed; deadlines stop running. */
        PAUSE,
        /** Continue a paused flow; deadlines are shifted by the pause. */
        RESUME,
        /** End the flow now (FINAL), whatever it was doing. */
        FORCE_STOP,
        /** Close a flow that gave up in ERROR (FINAL). */
        CLEAR_ERROR,
        /** "I have powered it off myself": counts as confirmation. */
        CONFIRM_OFF
    }
}
