package dev.remedy.cli.fenceagents;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FencingKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The fence-agents actions an agent answers, from the remedy actions it supports. */
final class ProtocolActions {

    static final String METADATA = "metadata";
    static final String VALIDATE_ALL = "validate-all";
    static final String LIST_STATUS = "list-status";

    private ProtocolActions() {
    }

    /**
     * The actions, in the order {@code fencing.py} lists them: {@code reboot} when the agent can switch off and on
     * (remedy then runs OFF, confirmed, and ON) or reboots by itself, never for fabric fencing (as fencing.py drops it
     * for {@code fabric_fencing}: ON right after OFF would undo the isolation, and Pacemaker turns a reboot into
     * OFF for an agent without one); {@code list} and {@code list-status} with LIST;
     * {@code monitor} with MONITOR or STATUS; {@code metadata} and {@code validate-all} always.
     */
    static List<String> of(FenceAgentProvider provider) {
        Set<FenceAction> supported = provider.supportedActions();
        List<String> actions = new ArrayList<>();
        if (supported.contains(FenceAction.ON)) {
            actions.add("on");
        }
        if (supported.contains(FenceAction.OFF)) {
            actions.add("off");
        }
        if (provider.fencingKind() != FencingKind.FABRIC
                && (rebootsByOffOn(provider) || supported.contains(FenceAction.REBOOT))) {
            actions.add("reboot");
        }
        if (supported.contains(FenceAction.STATUS)) {
            actions.add("status");
        }
        if (supported.contains(FenceAction.LIST)) {
            actions.add("list");
            actions.add(LIST_STATUS);
        }
        if (supported.contains(FenceAction.MONITOR) || supported.contains(FenceAction.STATUS)) {
            actions.add("monitor");
        }
        actions.add(METADATA);
        actions.add(VALIDATE_ALL);
        return List.copyOf(actions);
    }

    /** Whether {@code reboot} is OFF then ON, as {@code fencing.py} does it: an OFF that is confirmed comes first. */
    static boolean rebootsByOffOn(FenceAgentProvider provider) {
        return provider.fencingKind() == FencingKind.POWER
                && provider.supportedActions().containsAll(Set.of(FenceAction.OFF, FenceAction.ON));
    }
}
