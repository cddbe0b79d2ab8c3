package dev.remedy.core.flow;

import dev.remedy.core.plan.FenceStep;
import java.util.Arrays;

/**
 * Where a flow is inside its state. Each stage belongs to one state and one step; {@link #code()} is persisted.
 */
public enum Stage {
    /** Waiting the configured hold period after the decision. */
    HOLD("hold", FenceState.NEW, FenceStep.ISOLATION),
    /** Cordon the node and taint it NoSchedule. */
    ISOLATE_CLUSTER("isolate_cluster", FenceState.NEW, FenceStep.ISOLATION),
    /** Run the isolation levels: OFF for power and fabric methods, REBOOT for soft methods. */
    ISOLATE_AGENTS("isolate_agents", FenceState.NEW, FenceStep.ISOLATION),
    /**
     * Between isolation and the first power operation: after a successful soft fencing level, waiting the soft-fence
     * grace ({@link FlowSettings#softFenceGrace()}) for the node to report Ready. (The fence-race delay, which once
     * ran here, now lengthens the hold, before any fencing action; the code is kept for stored records.)
     */
    RACE_DELAY("race_delay", FenceState.RUNNING, FenceStep.POWER_MANAGEMENT),
    /** Send OFF to the current method. */
    POWER_OFF("power_off", FenceState.RUNNING, FenceStep.POWER_MANAGEMENT),
    /** Read STATUS of the current method until it reads OFF. */
    CONFIRM_OFF("confirm_off", FenceState.RUNNING, FenceStep.POWER_MANAGEMENT),
    /** Confirmed off: out-of-service taint and force-delete the node's pods. */
    RELEASE("release", FenceState.RUNNING, FenceStep.POWER_MANAGEMENT),
    /** Remove the out-of-service taint before the node can come back. */
    LIFT_OUT_OF_SERVICE("lift_out_of_service", FenceState.RUNNING, FenceStep.POWER_MANAGEMENT),
    /** Send ON to each method of the level that powered the node off. */
    POWER_ON("power_on", FenceState.RUNNING, FenceStep.POWER_MANAGEMENT),
    /**
     * Send ON (un-fence), in plan order, to each power and fabric method of every isolation level that may have run
     * (not only the level that succeeded); soft methods are skipped.
     */
    UNFENCE("unfence", FenceState.DONE, FenceStep.RECOVERY),
    /** Waiting for the node to report Ready. */
    AWAIT_READY("await_ready", FenceState.DONE, FenceStep.RECOVERY),
    /** Run the recovery levels (action ON). */
    RECOVER_AGENTS("recover_agents", FenceState.DONE, FenceStep.RECOVERY),
    /** Uncordon and remove remedy's taints. */
    RECOVER_CLUSTER("recover_cluster", FenceState.DONE, FenceStep.RECOVERY),
    /** The flow is over. */
    FINISHED("finished", FenceState.FINAL, FenceStep.RECOVERY),
    /** A step failed beyond its retries: waiting to restart, or given up. */
    FAILED("failed", FenceState.ERROR, FenceStep.ISOLATION);

    private final String code;
    private final FenceState state;
    private final FenceStep step;

    Stage(String code, FenceState state, FenceStep step) {
        this.code = code;
        this.state = state;
        this.step = step;
    }

    /** The stable persisted name. */
    public String code() {
        return code;
    }

    /** The state this stage belongs to. */
    public FenceState state() {
        return state;
    }

    /** The step this stage belongs to. */
    public FenceStep step() {
        return step;
    }

    /** The stage with this code. */
    public static Stage fromCode(String code) {
        return Arrays.stream(values()).filter(s -> s.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown stage '" + code + "'"));
    }
}
