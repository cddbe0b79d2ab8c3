package dev.remedy.fence.kube.events;

import dev.remedy.core.policy.PolicyDecision;
import dev.remedy.core.storm.Admission;
import dev.remedy.core.storm.StormListener;
import dev.remedy.core.storm.StormSignal;
import io.fabric8.kubernetes.api.model.ObjectReference;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reports storm protection and policy decisions as Events. A denied fence is a Warning on the Node:
 * {@code StormRefused} or {@code StormHeld}, naming the rule (its setting, such as {@code minHealthy}) and what was
 * counted against which limit. Storms and suspected shared infrastructure ({@code StormStarted}, {@code StormEnded},
 * {@code SharedInfrastructureSuspected}, {@code SharedInfrastructureCleared}) concern the pool, not a node: they are
 * reported about the object given as the pool's (the policy's ConfigMap, the operator's Deployment), or not at all
 * without one. Policy decisions are reported on the Node with medik8s NodeHealthCheck's reasons where they match
 * ({@code RemediationStarted}, {@code RemediationFinished}, {@code RemediationStopped},
 * {@code RemediationCannotStart}) and {@code RemediationEscalated}, {@code RemediationExhausted} otherwise.
 * Never throws.
 */
public final class StormEventReporter implements StormListener, Consumer<PolicyDecision> {

    private final KubeEvents events;
    private final Optional<ObjectReference> pool;

    /**
     * A reporter.
     *
     * @param events where to report
     * @param pool   the object pool-wide signals are reported about, if any
     */
    public StormEventReporter(KubeEvents events, Optional<ObjectReference> pool) {
        this.events = Objects.requireNonNull(events, "events");
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    @Override
    public void onSignal(StormSignal signal) {
        if (signal instanceof StormSignal.AdmissionDenied denied) {
            Admission.Denied d = denied.decision();
            boolean refused = d instanceof Admission.Refused;
            events.publish(new KubeEvents.Note(References.node(denied.node()), true,
                    refused ? "StormRefused" : "StormHeld", "Fence", "fencing node " + denied.node() + " was "
                    + (refused ? "refused" : "held back") + " by rule " + d.reason().property() + ": " + d.detail()));
        } else if (signal instanceof StormSignal.StormStarted s) {
            pool(true, "StormStarted", "remediation storm (" + s.reason().property() + "): no new fences until the"
                    + " pool is back within its threshold and the cooldown elapsed; " + s.detail());
        } else if (signal instanceof StormSignal.StormEnded s) {
            pool(false, "StormEnded", "the remediation storm ended; fences may be admitted again: " + s.detail());
        } else if (signal instanceof StormSignal.SharedInfrastructureSuspected s) {
            pool(true, "SharedInfrastructureSuspected", "unhealthy nodes concentrate in " + s.label() + "="
                    + s.value() + ": its nodes are not fenced until it clears; " + s.detail());
        } else if (signal instanceof StormSignal.SharedInfrastructureCleared s) {
            pool(false, "SharedInfrastructureCleared", s.label() + "=" + s.value() + " no longer looks like a"
                    + " shared failure; its nodes may be fenced again: " + s.detail());
        }
    }

    @Override
    public void accept(PolicyDecision d) {
        String reason = switch (d.kind()) {
            case STARTED -> "RemediationStarted";
            case ESCALATED -> "RemediationEscalated";
            case CANCELLED -> "RemediationStopped";
            case RECOVERED -> "RemediationFinished";
            case EXHAUSTED -> "RemediationExhausted";
            case HELD, PAUSED -> "RemediationCannotStart";
        };
        boolean warning = d.kind() != PolicyDecision.Kind.STARTED && d.kind() != PolicyDecision.Kind.RECOVERED;
        String what = d.kind().name().toLowerCase(Locale.ROOT) + (d.remedy().isEmpty() ? "" : " " + d.remedy());
        events.publish(new KubeEvents.Note(References.node(d.node()), warning, reason, "Remediate",
                "policy " + d.policy() + ": " + what + ": " + d.reason()));
    }

    private void pool(boolean warning, String reason, String note) {
        pool.ifPresent(p -> events.publish(new KubeEvents.Note(p, warning, reason, "Admit", note)));
    }
}
