package dev.remedy.simulators.pacemaker;

import java.util.Objects;

/**
 * One operation in the fencer's history, as {@code stonith_admin --history NODE --verbose --output-as xml} prints
 * it ({@code <fence_event>}).
 *
 * @param action what was asked: {@code off}, {@code on} or {@code reboot}
 * @param target the node fenced
 * @param status how it ended, or that it still runs
 * @param exitReason why it failed, as the fencer words it (for example {@code Fence agent did not complete within
 *     4s}); empty when the fencer gave none
 * @param delegate the node whose fencer ran the agent; empty while pending
 * @param client the client that asked, for example {@code stonith_admin.1234}
 * @param completed when it ended, as the fencer prints it ({@code 2026-11-26 06:01:27Z}); empty while pending
 */
public record FenceEvent(String action, String target, Status status, String exitReason, String delegate,
        String client, String completed) {

    /** How an operation ended. */
    public enum Status {
        /** The fencer counts the node as fenced. */
        SUCCESS,
        /** Every device of every level failed, or the operation timed out. */
        FAILED,
        /** Still running. */
        PENDING
    }

    /** Checks that nothing is null. */
    public FenceEvent {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(exitReason, "exitReason");
        Objects.requireNonNull(delegate, "delegate");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(completed, "completed");
    }
}
