package dev.remedy.core.flow;

import dev.remedy.spi.FenceStatus;
import java.time.Instant;

/** Something that happened to a node's fence flow. Published after the record that caused it was persisted. */
public sealed interface FenceEvent {

    /** The node concerned. */
    String node();

    /** When it happened. */
    Instant at();

    /**
     * The flow moved from one stage (and possibly state) to another.
     *
     * @param node   the node
     * @param at     when
     * @param from   the stage before
     * @param to     the stage after
     * @param reason why
     */
    record Transitioned(String node, Instant at, Stage from, Stage to, String reason) implements FenceEvent {
    }

    /**
     * An operation was issued (agent action or cluster action).
     *
     * @param node        the node
     * @param at          when
     * @param operationId its id
     * @param description what it is ({@code power_management L1 bmc off})
     */
    record OperationIssued(String node, Instant at, String operationId, String description) implements FenceEvent {
    }

    /**
     * An operation finished.
     *
     * @param node        the node
     * @param at          when
     * @param operationId its id
     * @param description what it was
     * @param result      how it ended
     * @param detail      the outcome detail
     * @param agentType   the agent type id of an agent operation ({@code ipmi}, {@code redfish}),
     *                    {@value #CLUSTER} for a cluster action, empty when not known
     */
    record OperationFinished(String node, Instant at, String operationId, String description, FenceStatus result,
                             String detail, String agentType) implements FenceEvent {

        /** The {@link #agentType()} of cluster actions. */
        public static final String CLUSTER = "cluster";

        /** Validates that the agent type is present (empty when not known). */
        public OperationFinished {
            java.util.Objects.requireNonNull(agentType, "agentType");
        }

        /** An operation whose agent type is not known. */
        public OperationFinished(String node, Instant at, String operationId, String description, FenceStatus result,
                                 String detail) {
            this(node, at, operationId, description, result, detail, "");
        }
    }

    /**
     * Fencing was confirmed: from now on workloads may be released.
     *
     * @param node         the node
     * @param at           when
     * @param confirmation the evidence
     */
    record Confirmed(String node, Instant at, Confirmation confirmation) implements FenceEvent {
    }

    /**
     * A request was refused (an admin command that does not apply, a decision for a node already in a flow).
     *
     * @param node   the node
     * @param at     when
     * @param reason why
     */
    record Refused(String node, Instant at, String reason) implements FenceEvent {
    }

    /**
     * Something needs a person: the flow gave up, or a host was left powered off.
     *
     * @param node   the node
     * @param at     when
     * @param reason what happened and what to do
     */
    record Alert(String node, Instant at, String reason) implements FenceEvent {
    }
}
