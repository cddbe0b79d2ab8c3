package dev.remedy.core.rules;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the operator must do about a host's reboot requests. Apply {@link #removeAnnotations()} and persist
 * {@link #pendingRebootSince()} <em>before</em> changing power: if power were restored first and the process
 * crashed, the left-over unkeyed request would look like a new one and reboot the host again.
 *
 * @param powerOn            the power state the host must be driven to
 * @param mode               how to power off when {@code powerOn} is false because of a reboot request
 *                           ({@link RebootMode#SOFT} when no request asks for {@link RebootMode#HARD})
 * @param rebootPending      whether a reboot is pending (a request exists and the host has not powered on since
 *                           the request was noticed)
 * @param removeAnnotations  annotations to remove, sorted
 * @param pendingRebootSince the new {@code status.pendingRebootSince}
 * @param requests           the valid requests found, sorted by annotation
 * @param problems           malformed requests found, one sentence each, sorted; they do not stop the decision
 * @param reason             why, in one sentence
 */
public record RebootDecision(boolean powerOn, RebootMode mode, boolean rebootPending, List<String> removeAnnotations,
        Optional<Instant> pendingRebootSince, List<RebootRequest> requests, List<String> problems, String reason) {

    /** Validates the fields and copies the lists. */
    public RebootDecision {
        Objects.requireNonNull(mode, "mode");
        removeAnnotations = List.copyOf(Objects.requireNonNull(removeAnnotations, "removeAnnotations"));
        Objects.requireNonNull(pendingRebootSince, "pendingRebootSince");
        requests = List.copyOf(Objects.requireNonNull(requests, "requests"));
        problems = List.copyOf(Objects.requireNonNull(problems, "problems"));
        Objects.requireNonNull(reason, "reason");
    }
}
