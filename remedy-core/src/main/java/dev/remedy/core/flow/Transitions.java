package dev.remedy.core.flow;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The legal transitions, as two explicit tables: between states (the design's automaton) and, finer, between
 * stages. Every stage pair the flow may take is listed; each one is also legal between the stages' states.
 */
public final class Transitions {

    private static final Map<FenceState, Set<FenceState>> LEGAL = new EnumMap<>(FenceState.class);
    private static final Map<Stage, Set<Stage>> LEGAL_STAGES = new EnumMap<>(Stage.class);

    static {
        LEGAL.put(FenceState.NEW, EnumSet.of(FenceState.NEW, FenceState.RUNNING, FenceState.ERROR, FenceState.FINAL));
        LEGAL.put(FenceState.RUNNING, EnumSet.of(FenceState.RUNNING, FenceState.DONE, FenceState.ERROR,
                FenceState.FINAL));
        LEGAL.put(FenceState.DONE, EnumSet.of(FenceState.DONE, FenceState.FINAL, FenceState.ERROR));
        LEGAL.put(FenceState.ERROR, EnumSet.of(FenceState.ERROR, FenceState.NEW, FenceState.FINAL));
        LEGAL.put(FenceState.FINAL, EnumSet.of(FenceState.FINAL));

        // Every live stage may be force-stopped (FINISHED); every stage that runs an operation or waits for the node
        // may fail its step (FAILED). A retry of a step re-enters its first stage (ISOLATE_CLUSTER, POWER_OFF,
        // RECOVER_AGENTS). A confirmation (STATUS read OFF, a reboot after the decision, an admin) may arrive in any
        // stage of power management and routes to RELEASE, LIFT_OUT_OF_SERVICE (an OFF was sent) or straight to
        // recovery (UNFENCE or AWAIT_READY). A topology that releases after isolation goes from isolation to RELEASE,
        // and from there to RACE_DELAY, which powers off or waits, isolated, for a reboot.
        stages(Stage.HOLD, Stage.ISOLATE_CLUSTER, Stage.FINISHED);
        stages(Stage.ISOLATE_CLUSTER, Stage.ISOLATE_CLUSTER, Stage.ISOLATE_AGENTS, Stage.FAILED, Stage.FINISHED);
        stages(Stage.ISOLATE_AGENTS, Stage.ISOLATE_CLUSTER, Stage.RACE_DELAY, Stage.RELEASE, Stage.FAILED,
                Stage.FINISHED);
        stages(Stage.RACE_DELAY, Stage.POWER_OFF, Stage.RELEASE, Stage.LIFT_OUT_OF_SERVICE, Stage.UNFENCE,
                Stage.AWAIT_READY, Stage.FAILED, Stage.FINISHED);
        stages(Stage.POWER_OFF, Stage.POWER_OFF, Stage.CONFIRM_OFF, Stage.RELEASE, Stage.LIFT_OUT_OF_SERVICE,
                Stage.UNFENCE, Stage.AWAIT_READY, Stage.FAILED, Stage.FINISHED);
        stages(Stage.CONFIRM_OFF, Stage.POWER_OFF, Stage.RELEASE, Stage.LIFT_OUT_OF_SERVICE, Stage.UNFENCE,
                Stage.AWAIT_READY, Stage.FAILED, Stage.FINISHED);
        stages(Stage.RELEASE, Stage.LIFT_OUT_OF_SERVICE, Stage.RACE_DELAY, Stage.FAILED, Stage.FINISHED);
        stages(Stage.LIFT_OUT_OF_SERVICE, Stage.POWER_ON, Stage.UNFENCE, Stage.AWAIT_READY, Stage.FAILED,
                Stage.FINISHED);
        stages(Stage.POWER_ON, Stage.UNFENCE, Stage.AWAIT_READY, Stage.FAILED, Stage.FINISHED);
        stages(Stage.UNFENCE, Stage.AWAIT_READY, Stage.FAILED, Stage.FINISHED);
        stages(Stage.AWAIT_READY, Stage.RECOVER_AGENTS, Stage.FAILED, Stage.FINISHED);
        stages(Stage.RECOVER_AGENTS, Stage.RECOVER_AGENTS, Stage.RECOVER_CLUSTER, Stage.FAILED, Stage.FINISHED);
        stages(Stage.RECOVER_CLUSTER, Stage.FAILED, Stage.FINISHED);
        stages(Stage.FINISHED);
        stages(Stage.FAILED, Stage.ISOLATE_CLUSTER, Stage.FINISHED);
    }

    private Transitions() {
    }

    private static void stages(Stage from, Stage... to) {
        Set<Stage> legal = EnumSet.noneOf(Stage.class);
        legal.addAll(Arrays.asList(to));
        LEGAL_STAGES.put(from, legal);
    }

    /** Whether a flow may move from {@code from} to {@code to}. */
    public static boolean isLegal(FenceState from, FenceState to) {
        return LEGAL.get(from).contains(to);
    }

    /** The states reachable from {@code from} in one transition. */
    public static Set<FenceState> from(FenceState from) {
        return Set.copyOf(LEGAL.get(from));
    }

    /** Whether a flow may move from stage {@code from} to stage {@code to}. */
    public static boolean isLegal(Stage from, Stage to) {
        return LEGAL_STAGES.get(from).contains(to);
    }

    /** The stages reachable from {@code from} in one transition. */
    public static Set<Stage> from(Stage from) {
        return Set.copyOf(LEGAL_STAGES.get(from));
    }

    /**
     * Checks a transition between states.
     *
     * @throws IllegalTransitionException naming the node and both states, if it is not in the table
     */
    public static void check(String node, FenceState from, FenceState to) {
        if (!isLegal(from, to)) {
            throw new IllegalTransitionException(node, from, to);
        }
    }

    /**
     * Checks a transition between stages.
     *
     * @throws IllegalTransitionException naming the node and both stages, if it is not in the stage table
     */
    public static void check(String node, Stage from, Stage to) {
        if (!isLegal(from, to)) {
            throw new IllegalTransitionException(node, from, to);
        }
    }
}
