package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The persisted record of one node under remediation. The state and step are those of {@link #stage()}.
 *
 * @param node           the node name
 * @param stage          where the flow is
 * @param level          the current level index within the current step's plan
 * @param method         the current method index within the level
 * @param retries        retries used in the current step
 * @param restarts       whole-flow restarts used
 * @param decidedAt      when the fencing decision was made
 * @param stageSince     when the current stage began
 * @param stepStartedAt  when the current step began
 * @param stepDeadline   when the current step's budget runs out
 * @param waitUntil      nothing happens before this time (hold, race delay, confirmation backoff, restart delay)
 * @param inFlight       the operation running now, if any (at most one per node)
 * @param sequence       how many operations this flow has issued (for unique operation ids)
 * @param levelConfirmed methods of the current power level that read OFF
 * @param confirmation   the evidence that the node is stopped, once established
 * @param isolationLevel the highest isolation level any of whose methods was started in this flow (across retries
 *                       and restarts), if any: un-fencing covers levels 0 to this one
 * @param powerLevel     the power level that powered the node off, once one did
 * @param released       whether workloads were released
 * @param poweredOff     whether remedy may have powered the node off (an OFF was issued) and has not powered it on since
 * @param pausedAt       set while an admin has paused the flow
 * @param gaveUp         whether the flow stays in ERROR until an admin clears it
 * @param reason         why the flow is where it is, for people
 * @param attempts       the last finished operations (bounded)
 * @param version        optimistic-concurrency version, incremented on every save
 */
public record NodeFence(String node, Stage stage, int level, int method, int retries, int restarts,
                        Instant decidedAt, Instant stageSince, Instant stepStartedAt, Instant stepDeadline,
                        Optional<Instant> waitUntil, Optional<Operation> inFlight, long sequence,
                        List<String> levelConfirmed, Optional<Confirmation> confirmation, OptionalInt isolationLevel,
                        OptionalInt powerLevel, boolean released, boolean poweredOff, Optional<Instant> pausedAt,
                        boolean gaveUp, String reason, List<Attempt> attempts, long version) {

    /** Validates the record and copies its lists. */
    public NodeFence {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(decidedAt, "decidedAt");
        Objects.requireNonNull(stageSince, "stageSince");
        Objects.requireNonNull(stepStartedAt, "stepStartedAt");
        Objects.requireNonNull(stepDeadline, "stepDeadline");
        Objects.requireNonNull(waitUntil, "waitUntil");
        Objects.requireNonNull(inFlight, "inFlight");
        Objects.requireNonNull(confirmation, "confirmation");
        Objects.requireNonNull(isolationLevel, "isolationLevel");
        Objects.requireNonNull(powerLevel, "powerLevel");
        Objects.requireNonNull(pausedAt, "pausedAt");
        Objects.requireNonNull(reason, "reason");
        levelConfirmed = List.copyOf(levelConfirmed);
        attempts = List.copyOf(attempts);
        if (retries < 0 || restarts < 0 || level < 0 || method < 0 || sequence < 0
                || isolationLevel.orElse(0) < 0 || powerLevel.orElse(0) < 0) {
            throw new IllegalArgumentException("negative counter in the record of " + node);
        }
        if (released && confirmation.isEmpty()) {
            throw new IllegalArgumentException("record of " + node + " says workloads were released without a confirmation");
        }
    }

    /** A new flow for {@code node}, decided at {@code now}, holding until {@code holdUntil}. */
    public static NodeFence decided(String node, Instant now, Instant holdUntil, String reason) {
        return new NodeFence(node, Stage.HOLD, 0, 0, 0, 0, now, now, now, holdUntil, Optional.of(holdUntil),
                Optional.empty(), 0, List.of(), Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), false, false,
                Optional.empty(), false,
                reason, List.of(), 0);
    }

    /**
     * A flow for {@code node} that an admin must look at before remedy touches the node: given up in ERROR, as if
     * it may have powered the node off (so closing it says to check the power). For a node whose earlier flow is
     * unknown, for example because its record was lost.
     */
    public static NodeFence heldForAdmin(String node, Instant now, String reason) {
        return new NodeFence(node, Stage.FAILED, 0, 0, 0, 0, now, now, now, now, Optional.empty(), Optional.empty(),
                0, List.of(), Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), false, true,
                Optional.empty(), true, reason, List.of(), 0);
    }

    /** The state of the flow. */
    public FenceState state() {
        return stage.state();
    }

    /** The step of the flow. */
    public FenceStep step() {
        return stage.step();
    }

    /** Whether the flow is over for good: FINAL, or ERROR given up. */
    public boolean isSettled() {
        return state() == FenceState.FINAL || (state() == FenceState.ERROR && gaveUp);
    }

    /** A builder starting from this record. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** This record with another version (the store sets it on save). */
    public NodeFence withVersion(long newVersion) {
        return toBuilder().version(newVersion).build();
    }

    /** Changes a copy of a {@link NodeFence}; used by the flow. */
    public static final class Builder {
        private final String node;
        private Stage stage;
        private int level;
        private int method;
        private int retries;
        private int restarts;
        private final Instant decidedAt;
        private Instant stageSince;
        private Instant stepStartedAt;
        private Instant stepDeadline;
        private Optional<Instant> waitUntil;
        private Optional<Operation> inFlight;
        private long sequence;
        private List<String> levelConfirmed;
        private Optional<Confirmation> confirmation;
        private OptionalInt isolationLevel;
        private OptionalInt powerLevel;
        private boolean released;
        private boolean poweredOff;
        private Optional<Instant> pausedAt;
        private boolean gaveUp;
        private String reason;
        private final List<Attempt> attempts;
        private long version;

        private Builder(NodeFence r) {
            node = r.node;
            stage = r.stage;
            level = r.level;
            method = r.method;
            retries = r.retries;
            restarts = r.restarts;
            decidedAt = r.decidedAt;
            stageSince = r.stageSince;
            stepStartedAt = r.stepStartedAt;
            stepDeadline = r.stepDeadline;
            waitUntil = r.waitUntil;
            inFlight = r.inFlight;
            sequence = r.sequence;
            levelConfirmed = r.levelConfirmed;
            confirmation = r.confirmation;
            isolationLevel = r.isolationLevel;
            powerLevel = r.powerLevel;
            released = r.released;
            poweredOff = r.poweredOff;
            pausedAt = r.pausedAt;
            gaveUp = r.gaveUp;
            reason = r.reason;
            attempts = new ArrayList<>(r.attempts);
            version = r.version;
        }

        /** Current stage. */
        public Stage stage() {
            return stage;
        }

        Builder stage(Stage value, Instant now) {
            this.stage = value;
            this.stageSince = now;
            return this;
        }

        Builder position(int newLevel, int newMethod) {
            this.level = newLevel;
            this.method = newMethod;
            return this;
        }

        Builder retries(int value) {
            this.retries = value;
            return this;
        }

        Builder restarts(int value) {
            this.restarts = value;
            return this;
        }

        Builder step(Instant startedAt, Instant deadline) {
            this.stepStartedAt = startedAt;
            this.stepDeadline = deadline;
            return this;
        }

        Builder waitUntil(Optional<Instant> value) {
            this.waitUntil = value;
            return this;
        }

        Builder inFlight(Optional<Operation> value) {
            this.inFlight = value;
            return this;
        }

        long nextSequence() {
            return ++sequence;
        }

        Builder sequence(long value) {
            this.sequence = value;
            return this;
        }

        Builder levelConfirmed(List<String> value) {
            this.levelConfirmed = value;
            return this;
        }

        Builder confirmation(Optional<Confirmation> value) {
            this.confirmation = value;
            return this;
        }

        /** Notes that a method of isolation level {@code value} was started: the highest such level is kept. */
        Builder isolationLevelReached(int value) {
            this.isolationLevel = OptionalInt.of(Math.max(isolationLevel.orElse(value), value));
            return this;
        }

        Builder powerLevel(int value) {
            this.powerLevel = OptionalInt.of(value);
            return this;
        }

        Builder released(boolean value) {
            this.released = value;
            return this;
        }

        Builder poweredOff(boolean value) {
            this.poweredOff = value;
            return this;
        }

        Builder pausedAt(Optional<Instant> value) {
            this.pausedAt = value;
            return this;
        }

        Builder gaveUp(boolean value) {
            this.gaveUp = value;
            return this;
        }

        Builder reason(String value) {
            this.reason = value;
            return this;
        }

        Builder attempt(Attempt attempt, int keep) {
            attempts.add(attempt);
            while (attempts.size() > keep) {
                attempts.remove(0);
            }
            return this;
        }

        /** Sets the version. */
        public Builder version(long value) {
            this.version = value;
            return this;
        }

        /** The record. */
        public NodeFence build() {
            return new NodeFence(node, stage, level, method, retries, restarts, decidedAt, stageSince, stepStartedAt,
                    stepDeadline, waitUntil, inFlight, sequence, levelConfirmed, confirmation, isolationLevel,
                    powerLevel, released, poweredOff, pausedAt, gaveUp, reason, attempts, version);
        }
    }
}
