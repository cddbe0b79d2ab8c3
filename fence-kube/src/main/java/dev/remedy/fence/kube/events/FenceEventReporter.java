package dev.remedy.fence.kube.events;

import dev.remedy.core.event.FenceEventListener;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.FenceStatus;
import java.util.Objects;

/**
 * Reports the engine's {@link FenceEvent}s as Events. The Node gets what people follow: the decision
 * ({@code FenceDecided}), the confirmation that it is stopped ({@code FenceConfirmed}), the release of its workloads
 * ({@code WorkloadsReleased}), the start of recovery ({@code RecoveryStarted}), the end ({@code FenceFinished}), a
 * failed step ({@code FenceFailed}), a refusal ({@code FenceRefused}) and alerts, among them giving up
 * ({@code FenceAlert}). The node's NodeFence gets the same and every operation ({@code OperationIssued},
 * {@code OperationSucceeded}, {@code OperationFailed}). Other stage changes are not reported (operations say
 * more). Never throws.
 */
public final class FenceEventReporter implements FenceEventListener {

    private final KubeEvents events;
    private final boolean nodeFences;

    /**
     * A reporter.
     *
     * @param events     where to report
     * @param nodeFences whether to report about the NodeFence objects too
     */
    public FenceEventReporter(KubeEvents events, boolean nodeFences) {
        this.events = Objects.requireNonNull(events, "events");
        this.nodeFences = nodeFences;
    }

    @Override
    public void onEvent(FenceEvent event) {
        if (event instanceof FenceEvent.Transitioned t) {
            transitioned(t);
        } else if (event instanceof FenceEvent.OperationIssued o) {
            fenceOnly(o.node(), false, "OperationIssued", "Operate", "issued " + o.description() + " ("
                    + o.operationId() + ")");
        } else if (event instanceof FenceEvent.OperationFinished o) {
            boolean ok = o.result() == FenceStatus.SUCCEEDED;
            fenceOnly(o.node(), !ok, ok ? "OperationSucceeded" : "OperationFailed", "Operate", o.description()
                    + " " + o.result() + (o.detail().isEmpty() ? "" : ": " + o.detail()));
        } else if (event instanceof FenceEvent.Confirmed c) {
            both(c.node(), false, "FenceConfirmed", "Fence", "node " + c.node() + " is confirmed "
                    + (c.confirmation().provesStopped() ? "stopped" : "isolated") + " (" + c.confirmation().kind()
                    + " by " + c.confirmation().source() + "); its workloads may be released");
        } else if (event instanceof FenceEvent.Refused r) {
            both(r.node(), true, "FenceRefused", "Decide", r.reason());
        } else if (event instanceof FenceEvent.Alert a) {
            both(a.node(), true, "FenceAlert", "Alert", a.reason());
        }
    }

    private void transitioned(FenceEvent.Transitioned t) {
        if (t.from() == Stage.HOLD && t.to() == Stage.HOLD) {
            both(t.node(), false, "FenceDecided", "Decide", "remedy decided to fence node " + t.node() + ": "
                    + t.reason());
        } else if (t.to() == Stage.FAILED) {
            both(t.node(), true, "FenceFailed", "Fence", "fencing step " + t.from().step() + " of node " + t.node()
                    + " failed: " + t.reason());
        } else if (t.from() == Stage.RELEASE && t.to() != Stage.FAILED && t.to() != Stage.FINISHED) {
            both(t.node(), false, "WorkloadsReleased", "Release", "the workloads of node " + t.node()
                    + " were released: " + t.reason());
        } else if (t.to() == Stage.FINISHED) {
            both(t.node(), false, "FenceFinished", "Recover", "the fence flow of node " + t.node() + " ended: "
                    + t.reason());
        } else if (t.to().step() == FenceStep.RECOVERY && t.from().step() != FenceStep.RECOVERY) {
            both(t.node(), false, "RecoveryStarted", "Recover", "recovery of node " + t.node() + " started: "
                    + t.reason());
        }
    }

    private void both(String node, boolean warning, String reason, String action, String note) {
        events.publish(new KubeEvents.Note(References.node(node), warning, reason, action, note));
        fenceOnly(node, warning, reason, action, note);
    }

    private void fenceOnly(String node, boolean warning, String reason, String action, String note) {
        if (nodeFences) {
            events.publish(new KubeEvents.Note(References.nodeFence(node), warning, reason, action, note));
        }
    }
}
