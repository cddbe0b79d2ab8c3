package dev.remedy.core.rules;

import static dev.remedy.core.rules.RemediationCondition.PERMANENT_NODE_DELETION_EXPECTED;
import static dev.remedy.core.rules.RemediationCondition.PROCESSING;
import static dev.remedy.core.rules.RemediationCondition.SUCCEEDED;

import dev.remedy.core.rules.RemediationCondition.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The state machine of the {@code escalate} strategy, as a pure function
 * {@code (strategy, status, observation, now) → (status', actions)}. It is level-triggered: while waiting, each step
 * repeats the action that the phase relies on (they are idempotent), so an action lost in a crash after the status
 * was persisted is issued again on the next evaluation.
 *
 * <pre>
 * any non-terminal  + timed-out marker           → CANCELLED (removes the reboot request if it was holding the host off)
 * PENDING                                        → POWERING_OFF       [ADD_REBOOT_ANNOTATION]
 * POWERING_OFF      + host off                   → WAITING_FOR_NODE   [REMOVE_REBOOT_ANNOTATION]
 * POWERING_OFF      + on past powerOffTimeout    → FAILED             [REMOVE_REBOOT_ANNOTATION]
 * WAITING_FOR_NODE  + node ready                 → SUCCEEDED
 * WAITING_FOR_NODE  + past powerOnTimeout, retries left → POWERING_OFF, retryCount+1 [ADD_REBOOT_ANNOTATION]
 * WAITING_FOR_NODE  + past powerOnTimeout, no retries   → DELETING, PermanentNodeDeletionExpected [DELETE_MACHINE]
 * DELETING          + node gone                  → DELETED
 * terminal phases                                → unchanged, no action
 * </pre>
 *
 * <p>A power-off timeout never escalates to deletion: releasing a node whose host was never verified off would break
 * the safety invariant, so the remediation fails and the health checker moves on to its next remediator. Deletion
 * is safe because the host was verified off after the remediation started. Conditions: {@code Processing} is true
 * while working and false once terminal; {@code Succeeded} is unknown while working, then true (SUCCEEDED, DELETED)
 * or false (FAILED, CANCELLED); {@code PermanentNodeDeletionExpected} turns true when entering DELETING, persisted
 * before the deletion runs.
 */
public final class EscalateRemediation {

    /**
     * The annotation a health checker puts on a remediation object whose time is up (medik8s Node Healthcheck's
     * name): the remediator stops and reports.
     */
    public static final String TIMED_OUT_ANNOTATION = "remediation.medik8s.io/nhc-timed-out";

    private EscalateRemediation() {
    }

    /**
     * Evaluates one step.
     *
     * @param strategy    the strategy's settings
     * @param status      the persisted status
     * @param observation what is seen now
     * @param now         the current time; not before {@code status.phaseSince()}
     * @return the new status and the actions to run after persisting it
     */
    public static RemediationStep next(EscalateStrategy strategy, RemediationStatus status,
            RemediationObservation observation, Instant now) {
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(observation, "observation");
        Objects.requireNonNull(now, "now");
        if (status.phaseSince().isPresent() && now.isBefore(status.phaseSince().get())) {
            throw new IllegalArgumentException("now: " + now + " is before phaseSince " + status.phaseSince().get()
                    + "; pass a time that does not go backwards");
        }
        RemediationPhase phase = status.phase();
        if (phase.terminal()) {
            return new RemediationStep(status, List.of());
        }
        Builder b = new Builder(status, now);
        if (observation.timedOutMarker()) {
            b.enter(RemediationPhase.CANCELLED).set(PROCESSING, Status.FALSE, "TimedOut",
                    "stopped: the remediation object carries " + TIMED_OUT_ANNOTATION)
                    .set(SUCCEEDED, Status.FALSE, "TimedOut", "the health checker timed this remediation out");
            if (phase == RemediationPhase.PENDING) {
                b.set(PERMANENT_NODE_DELETION_EXPECTED, Status.FALSE, "Cancelled", "the remediation never started");
            }
            return b.step(phase == RemediationPhase.POWERING_OFF
                    ? List.of(RemediationAction.REMOVE_REBOOT_ANNOTATION) : List.of());
        }
        Instant since = status.phaseSince().orElse(now);
        switch (phase) {
            case PENDING:
                return b.enter(RemediationPhase.POWERING_OFF)
                        .set(PROCESSING, Status.TRUE, "PoweringOff", "power cycle 1: waiting for the host to power off")
                        .set(SUCCEEDED, Status.UNKNOWN, "InProgress", "remediation in progress")
                        .set(PERMANENT_NODE_DELETION_EXPECTED, Status.FALSE, "RebootFirst",
                                "the machine is deleted only after " + (strategy.deleteAfterRetries() + 1)
                                        + " failed power cycles")
                        .step(List.of(RemediationAction.ADD_REBOOT_ANNOTATION));
            case POWERING_OFF:
                if (!observation.poweredOn()) {
                    return b.enter(RemediationPhase.WAITING_FOR_NODE)
                            .set(PROCESSING, Status.TRUE, "WaitingForNode",
                                    "the host was verified off; power restored, waiting for the node to be ready")
                            .step(List.of(RemediationAction.REMOVE_REBOOT_ANNOTATION));
                }
                if (!now.isBefore(since.plus(strategy.powerOffTimeout()))) {
                    return b.enter(RemediationPhase.FAILED)
                            .set(PROCESSING, Status.FALSE, "PowerOffTimedOut",
                                    "the host did not power off within " + strategy.powerOffTimeout())
                            .set(SUCCEEDED, Status.FALSE, "PowerOffTimedOut",
                                    "the node is not deleted because its host was never verified off")
                            .step(List.of(RemediationAction.REMOVE_REBOOT_ANNOTATION));
                }
                return b.step(List.of(RemediationAction.ADD_REBOOT_ANNOTATION));
            case WAITING_FOR_NODE:
                if (observation.nodeReady()) {
                    return b.enter(RemediationPhase.SUCCEEDED)
                            .set(PROCESSING, Status.FALSE, "NodeReady", "the node is ready after the power cycle")
                            .set(SUCCEEDED, Status.TRUE, "NodeReady", "the node is ready after the power cycle")
                            .step(List.of());
                }
                if (now.isBefore(since.plus(strategy.powerOnTimeout()))) {
                    return b.step(List.of(RemediationAction.REMOVE_REBOOT_ANNOTATION));
                }
                if (status.retryCount() < strategy.deleteAfterRetries()) {
                    int retry = status.retryCount() + 1;
                    return b.retryCount(retry).enter(RemediationPhase.POWERING_OFF)
                            .set(PROCESSING, Status.TRUE, "PoweringOff", "power cycle " + (retry + 1)
                                    + ": the node was not ready within " + strategy.powerOnTimeout())
                            .step(List.of(RemediationAction.ADD_REBOOT_ANNOTATION));
                }
                return b.enter(RemediationPhase.DELETING)
                        .set(PROCESSING, Status.TRUE, "Deleting", "retries used up: deleting the machine")
                        .set(PERMANENT_NODE_DELETION_EXPECTED, Status.TRUE, "RetriesExhausted",
                                "the node was not ready after " + (status.retryCount() + 1)
                                        + " power cycles; the machine is deleted and replaced")
                        .step(List.of(RemediationAction.DELETE_MACHINE));
            case DELETING:
                if (!observation.nodePresent()) {
                    return b.enter(RemediationPhase.DELETED)
                            .set(PROCESSING, Status.FALSE, "MachineDeleted", "the machine and its node are deleted")
                            .set(SUCCEEDED, Status.TRUE, "MachineDeleted", "the machine was deleted for replacement")
                            .step(List.of());
                }
                return b.step(List.of(RemediationAction.DELETE_MACHINE));
            default:
                throw new IllegalStateException("phase " + phase + " has no rule");
        }
    }

    /** Collects the changes of one step. */
    private static final class Builder {
        private final RemediationStatus from;
        private final Instant now;
        private RemediationPhase phase;
        private Optional<Instant> since;
        private int retryCount;
        private final List<RemediationCondition> conditions;

        Builder(RemediationStatus from, Instant now) {
            this.from = from;
            this.now = now;
            this.phase = from.phase();
            this.since = from.phaseSince();
            this.retryCount = from.retryCount();
            this.conditions = new ArrayList<>(from.conditions());
        }

        Builder enter(RemediationPhase next) {
            phase = next;
            since = Optional.of(now);
            return this;
        }

        Builder retryCount(int n) {
            retryCount = n;
            return this;
        }

        Builder set(String type, Status status, String reason, String message) {
            Instant transition = from.condition(type).filter(c -> c.status() == status)
                    .map(RemediationCondition::lastTransitionTime).orElse(now);
            conditions.removeIf(c -> c.type().equals(type));
            conditions.add(new RemediationCondition(type, status, reason, message, transition));
            return this;
        }

        RemediationStep step(List<RemediationAction> actions) {
            return new RemediationStep(new RemediationStatus(phase, retryCount, since, conditions), actions);
        }
    }
}
