package dev.remedy.core.rules;

import static dev.remedy.core.rules.MachineRemediationAction.ADD_REBOOT_ANNOTATION;
import static dev.remedy.core.rules.MachineRemediationAction.DELETE_NODE;
import static dev.remedy.core.rules.MachineRemediationAction.REMOVE_NEEDS_REMEDIATION_ANNOTATION;
import static dev.remedy.core.rules.MachineRemediationAction.REMOVE_REBOOT_ANNOTATION;

import java.util.List;
import java.util.Objects;

/**
 * Remediation of a machine through annotations (after the Cluster API metal3 provider's design): power the host off
 * with a reboot request, delete the node while the host is off, then let the host power on again.
 *
 * <p>The whole rule is this table; {@code R} needs-remediation, {@code P} powered on, {@code A} reboot annotation,
 * {@code N} node reference exists, {@code -} either:
 * <pre>
 *  R P A N | actions
 *  1 - 0 - | ADD_REBOOT_ANNOTATION           (power off and hold off; also for a host already off, so the
 *          |                                  node is deleted while we, not chance, hold the host off)
 *  1 1 1 - | nothing                         (waiting for the host to report off)
 *  1 0 1 1 | DELETE_NODE                     (workloads released while the host is verified off)
 *  1 0 1 0 | REMOVE_NEEDS_REMEDIATION_ANNOTATION, REMOVE_REBOOT_ANNOTATION (done: power back on)
 *  0 - 1 - | REMOVE_REBOOT_ANNOTATION        (crash recovery: never leave the host held off)
 *  0 - 0 - | nothing
 * </pre>
 * The rule is stateless, so a controller that crashes at any point resumes by evaluating it again; no row leaves the
 * reboot annotation on a host once needs-remediation is gone, so a host is never left powered off by this rule.
 */
public final class MachineRemediationRules {

    /**
     * The machine annotation that asks for remediation. The value is remedy's own choice (the rule reads booleans,
     * so a bridge to another system maps its own annotation onto {@link MachineRemediationState#needsRemediation()}).
     */
    public static final String NEEDS_REMEDIATION = "remediation.remedy.dev/needs-remediation";

    /** The key remedy uses in its keyed reboot request, so that it holds the host off until it removes it. */
    public static final String REBOOT_KEY = "remedy-machine-remediation";

    /** The host annotation that powers the host off and holds it off: a keyed request of {@link RebootRequests}. */
    public static final String REBOOT_ANNOTATION = RebootRequests.ANNOTATION_PREFIX + REBOOT_KEY;

    /** The value remedy writes with {@link #REBOOT_ANNOTATION}: fencing wants a hard power off. */
    public static final String REBOOT_ANNOTATION_VALUE = "{\"mode\":\"hard\"}";

    private MachineRemediationRules() {
    }

    /**
     * Decides what to do for one state.
     *
     * @param state what the controller sees
     * @return the actions to take, in the order to take them; empty when there is nothing to do
     */
    public static List<MachineRemediationAction> decide(MachineRemediationState state) {
        Objects.requireNonNull(state, "state");
        if (!state.needsRemediation()) {
            return state.rebootAnnotation() ? List.of(REMOVE_REBOOT_ANNOTATION) : List.of();
        }
        if (!state.rebootAnnotation()) {
            return List.of(ADD_REBOOT_ANNOTATION);
        }
        if (state.poweredOn()) {
            return List.of();
        }
        if (state.nodeRefExists()) {
            return List.of(DELETE_NODE);
        }
        return List.of(REMOVE_NEEDS_REMEDIATION_ANNOTATION, REMOVE_REBOOT_ANNOTATION);
    }
}
