package dev.remedy.core.rules;

import static dev.remedy.core.rules.MachineRemediationAction.ADD_REBOOT_ANNOTATION;
import static dev.remedy.core.rules.MachineRemediationAction.DELETE_NODE;
import static dev.remedy.core.rules.MachineRemediationAction.REMOVE_NEEDS_REMEDIATION_ANNOTATION;
import static dev.remedy.core.rules.MachineRemediationAction.REMOVE_REBOOT_ANNOTATION;

import java.util.List;
import java.util.Objects;

/**
 * Remediation of a machine through annotations, after metal3's "annotation for power cycling and deleting failed
 * nodes" design (the CAPM3 machine remediation controller): power the host off with a keyed reboot request, delete the
 * node while the host reports off, mark the machine done, then let the host power on again.
 *
 * <p>The whole rule is this table, in the design's bit order: {@code N} the machine's node exists, {@code R} the
 * machine carries {@link #NEEDS_REMEDIATION}, {@code P} the host reports power on, {@code A} the host carries
 * {@link #REBOOT_ANNOTATION}. Every row gives at most one action, so a controller writes once per evaluation.
 * <pre>
 *  N R P A | design                    | remedy
 *  0 0 0 0 | (no row)                  | nothing
 *  0 0 0 1 | remove reboot             | REMOVE_REBOOT_ANNOTATION
 *  0 0 1 0 | nothing                   | nothing
 *  0 0 1 1 | nothing                   | REMOVE_REBOOT_ANNOTATION    deviation (a)
 *  0 1 0 0 | nothing                   | ADD_REBOOT_ANNOTATION       deviation (b)
 *  0 1 0 1 | remove needs-remediation  | REMOVE_NEEDS_REMEDIATION_ANNOTATION
 *  0 1 1 0 | add reboot                | ADD_REBOOT_ANNOTATION
 *  0 1 1 1 | nothing                   | nothing (waiting for the host to report off)
 *  1 0 0 0 | nothing                   | nothing
 *  1 0 0 1 | remove reboot             | REMOVE_REBOOT_ANNOTATION
 *  1 0 1 0 | nothing                   | nothing
 *  1 0 1 1 | nothing                   | REMOVE_REBOOT_ANNOTATION    deviation (a)
 *  1 1 0 0 | nothing                   | ADD_REBOOT_ANNOTATION       deviation (b)
 *  1 1 0 1 | delete node               | DELETE_NODE
 *  1 1 1 0 | add reboot                | ADD_REBOOT_ANNOTATION
 *  1 1 1 1 | nothing                   | nothing (waiting for the host to report off)
 * </pre>
 * Deviations, each kept because it is safer:
 * <ol type="a">
 *   <li>A reboot request left on a powered-on host whose machine no longer needs remediation (a crash, a remediation
 *       cancelled by removing the machine's annotation) is removed at once. The design waits, so the host operator
 *       powers a healthy machine off for nothing before the "remove reboot" rows bring it back.</li>
 *   <li>A machine that needs remediation and whose host is already off (a crash, a power loss, someone else's
 *       request) gets the reboot request, which holds the host off. The design waits, so the host operator powers
 *       the failed machine on (its kubelet and workloads start again, and the node comes back) only for the
 *       "add reboot" rows to power it off again; remedy skips that needless power-on of a failed machine and deletes
 *       the node while it, not chance, holds the host off.</li>
 * </ol>
 * The rule is stateless, so a controller that crashes at any point resumes by evaluating it again from the
 * annotations alone. No row keeps the reboot annotation once needs-remediation is gone, so this rule never leaves a
 * host powered off.
 */
public final class MachineRemediationRules {

    /**
     * The Machine annotation that asks for remediation (the design's name; a health checker sets it, the rule removes
     * it when done). Its value is not read.
     */
    public static final String NEEDS_REMEDIATION = "host.metal3.io/external-remediation";

    /** The key of the design's keyed reboot request, which holds the host off until the rule removes it. */
    public static final String REBOOT_KEY = "machine-remediation";

    /**
     * The host annotation that powers the host off and holds it off, {@code reboot.metal3.io/machine-remediation}: a
     * keyed request of {@link RebootRequests}.
     */
    public static final String REBOOT_ANNOTATION = RebootRequests.ANNOTATION_PREFIX + REBOOT_KEY;

    /** The value remedy writes with {@link #REBOOT_ANNOTATION}: fencing wants a hard power off. */
    public static final String REBOOT_ANNOTATION_VALUE = "{\"mode\":\"hard\"}";

    private MachineRemediationRules() {
    }

    /**
     * Decides what to do for one state.
     *
     * @param state what the controller sees
     * @return the action to take (at most one); empty when there is nothing to do
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
        // the reboot annotation goes in the next evaluation (row 0 0 0 1): removing needs-remediation first means a
        // crash in between leaves no state that starts a second power cycle
        return List.of(REMOVE_NEEDS_REMEDIATION_ANNOTATION);
    }
}
