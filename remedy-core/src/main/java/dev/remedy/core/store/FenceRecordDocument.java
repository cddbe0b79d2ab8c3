package dev.remedy.core.store;

import java.util.List;

/**
 * The JSON document of one fence record, format {@value FenceRecordCodec#FORMAT}. Every field is written (empty
 * optionals as {@code null}) and every field must be present when read. Codes are the persisted codes of the
 * enums, instants and durations are ISO-8601 strings; {@code isolationLevel} and {@code powerLevel} are -1 when
 * there is none, and an operation's {@code level} and {@code method} are 0 for a cluster action. Package-private so Jackson stays out of public signatures.
 */
record FenceRecordDocument(int format, String node, String stage, int level, int method, int retries,
                           int restarts, String decidedAt, String stageSince, String stepStartedAt,
                           String stepDeadline, String waitUntil, OperationDocument inFlight, long sequence,
                           List<String> levelConfirmed, ConfirmationDocument confirmation, int isolationLevel,
                           int powerLevel, boolean released, boolean poweredOff, String pausedAt, boolean gaveUp,
                           String reason, List<AttemptDocument> attempts, long version) {

    /** An operation in flight; exactly one of {@code action} (agent) and {@code cluster} is non-null. */
    record OperationDocument(String id, String step, int level, int method, String action, String cluster,
                             String issuedAt, String budget) {
    }

    /** The evidence that the node is stopped. */
    record ConfirmationDocument(String kind, String source, String at) {
    }

    /** One finished operation. */
    record AttemptDocument(String at, String operation, String result, String detail) {
    }
}
