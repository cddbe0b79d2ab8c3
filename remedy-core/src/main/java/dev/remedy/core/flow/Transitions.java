package dev.remedy.core.flow;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The legal state transitions, as an explicit table. Moving between stages of one state is always legal.
 */
public final class Transitions {

    private static final Map<FenceState, Set<FenceState>> LEGAL = new EnumMap<>(FenceState.class);

    static {
        LEGAL.put(FenceState.NEW, EnumSet.of(FenceState.NEW, FenceState.RUNNING, FenceState.ERROR, FenceState.FINAL));
        LEGAL.put(FenceState.RUNNING, EnumSet.of(FenceState.RUNNING, FenceState.DONE, FenceState.ERROR,
                FenceState.FINAL));
        LEGAL.put(FenceState.DONE, EnumSet.of(FenceState.DONE, FenceState.FINAL, FenceState.ERROR));
        LEGAL.put(FenceState.ERROR, EnumSet.of(FenceState.ERROR, FenceState.NEW, FenceState.FINAL));
        LEGAL.put(FenceState.FINAL, EnumSet.of(FenceState.FINAL));
    }

    private Transitions() {
    }

    /** Whether a flow may move from {@code from} to {@code to}. */
    public static boolean isLegal(FenceState from, FenceState to) {
        return LEGAL.get(from).contains(to);
    }

    /** The states reachable from {@code from} in one transition. */
    public static Set<FenceState> from(FenceState from) {
        return Set.copyOf(LEGAL.get(from));
    }

    /**
     * Checks a transition.
     *
     * @throws IllegalTransitionException naming the node and both states, if it is not in the table
     */
    public static void check(String node, FenceState from, FenceState to) {
        if (!isLegal(from, to)) {
            throw new IllegalTransitionException(node, from, to);
        }
    }
}
