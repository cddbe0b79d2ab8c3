package dev.remedy.core.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * What the machine-remediation rule sees about one machine and its host.
 *
 * @param nodeRefExists    whether the machine still references a node object (the node has not been deleted)
 * @param needsRemediation whether the machine carries {@link MachineRemediationRules#NEEDS_REMEDIATION}
 * @param poweredOn        whether the host reports power on
 * @param rebootAnnotation whether the host carries {@link MachineRemediationRules#REBOOT_ANNOTATION}
 */
public record MachineRemediationState(boolean nodeRefExists, boolean needsRemediation, boolean poweredOn,
        boolean rebootAnnotation) {

    /**
     * All 16 states, in binary order of (nodeRefExists, needsRemediation, poweredOn, rebootAnnotation).
     *
     * @return a new list of the 16 states
     */
    public static List<MachineRemediationState> all() {
        List<MachineRemediationState> states = new ArrayList<>(16);
        for (int bits = 0; bits < 16; bits++) {
            states.add(new MachineRemediationState((bits & 8) != 0, (bits & 4) != 0, (bits & 2) != 0, (bits & 1) != 0));
        }
        return List.copyOf(states);
    }
}
