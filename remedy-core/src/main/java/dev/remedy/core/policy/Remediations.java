package dev.remedy.core.policy;

import dev.remedy.core.policy.PolicyDecision.Kind;
import dev.remedy.core.storm.NodeView;
import dev.remedy.core.storm.PoolView;
import dev.remedy.core.time.Deadlines;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The rule core both policy controllers share: the remediations in progress, and the rules that start one (if
 * storm protection admits it), follow it, escalate it when its remedy fails (at once) or times out (cancelled
 * first), and end it once the node has stayed healthy for the policy's healthy delay. How nodes reach it (a full
 * pass, or the node that changed) is the controllers' business. Not thread-safe.
 */
final class Remediations {

    private final List<Policy> policies;
    private final RemedyRunner runner;
    private final AdmissionGate gate;
    private final Consumer<PolicyDecision> listener;
    private final Map<String, Remediation> active = new HashMap<>();
    private final Map<String, String> lastHeld = new HashMap<>();

    Remediations(List<Policy> policies, RemedyRunner runner, AdmissionGate gate, Consumer<PolicyDecision> listener) {
        this.policies = List.copyOf(policies);
        this.runner = Objects.requireNonNull(runner, "runner");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    List<Policy> policies() {
        return policies;
    }

    AdmissionGate gate() {
        return gate;
    }

    /** Sends {@code decisions} to the listener and returns them. */
    List<PolicyDecision> publish(List<PolicyDecision> decisions) {
        decisions.forEach(listener);
        return decisions;
    }

    boolean isActive(String node) {
        return active.containsKey(node);
    }

    /** The policy remediating {@code node}, if any. */
    Optional<Policy> policyOf(String node) {
        return Optional.ofNullable(active.get(node)).map(Remediation::policy);
    }

    Optional<String> activeRemedy(String node) {
        return Optional.ofNullable(active.get(node)).map(r -> r.remedy().name());
    }

    int count() {
        return active.size();
    }

    /**
     * Whether following the remediation of {@code node} asks someone for an answer that time alone does not give:
     * the progress of its running remedy ({@code polled}: the runner is polled, not told), or storm protection
     * for an escalation held back. False when there is none, when it is exhausted, or when the node is healthy
     * (then only its healthy delay, a deadline, can end it).
     */
    boolean needsFollowing(String node, boolean polled) {
        Remediation r = active.get(node);
        return r != null && !r.exhausted() && r.healthySince() == null && (polled || !r.started());
    }

    /** Whether {@code node} has a remedy running: started, the ladder not exhausted, the node not yet healthy. */
    boolean running(String node) {
        Remediation r = active.get(node);
        return r != null && r.started() && !r.exhausted() && r.healthySince() == null;
    }

    /**
     * When the remediation of {@code node} next changes by time alone, or null: the end of its healthy delay while
     * the node is healthy, else (with {@code timeouts}) the timeout of its running remedy.
     */
    Instant deadline(String node, boolean timeouts) {
        Remediation r = active.get(node);
        if (r == null) {
            return null;
        }
        if (r.healthySince() != null) {
            return Deadlines.plus(r.healthySince(), r.policy().healthyDelay());
        }
        return timeouts && r.started() && !r.exhausted() ? Deadlines.plus(r.rungStarted(), r.remedy().timeout())
                : null;
    }

    /** A hold noted for {@code node} no longer applies: it is healthy under every policy, or it left the cluster. */
    void clearHold(String node) {
        lastHeld.remove(node);
    }

    /** Whether a hold was ever noted (a cheap check before clearing one per node). */
    boolean anyHeld() {
        return !lastHeld.isEmpty();
    }

    /** How storm protection sees {@code node} under {@code policy}. */
    NodeView view(Policy policy, NodeStatus node, boolean sick) {
        return node.view(policy.storm().failureDomainLabel(), sick, active.containsKey(node.name()),
                node.disconnected(), policy.storm().priorityDelay().isZero() ? 0 : node.priority());
    }

    /** Starts a remediation of a node not being remediated, if it is due and admitted; true if started. */
    boolean consider(Policy policy, NodeStatus node, PoolView pool, Instant now, List<PolicyDecision> decisions) {
        if (policy.paused()) {
            noteHeld(node, policy, Kind.PAUSED, "new remediations are paused by " + policy.pauseRequests(), now,
                    decisions);
            return false;
        }
        Optional<String> held = gate.holdBack(node.name(), policy, pool, now);
        if (held.isPresent()) {
            noteHeld(node, policy, Kind.HELD, held.get(), now, decisions);
            return false;
        }
        lastHeld.remove(node.name());
        Remedy first = policy.escalation().get(0);
        String reason = "unhealthy: " + Conditions.describe(policy, node);
        runner.start(node.name(), first, reason, gate.raceDelay(node.name(), policy));
        active.put(node.name(), new Remediation(policy, 0, now, null, false, true));
        decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.STARTED, first.name(), reason));
        return true;
    }

    /** Follows the remediation of {@code node}: ends it, escalates it, or leaves it running. */
    void follow(NodeStatus node, PoolView view, Instant now, List<PolicyDecision> decisions) {
        Remediation r = active.get(node.name());
        Policy policy = r.policy();
        if (!Conditions.showsAny(policy, node)) {
            Instant healthySince = r.healthySince() != null ? r.healthySince() : now;
            if (!now.isBefore(Deadlines.plus(healthySince, policy.healthyDelay()))) {
                endExternalRemedies(node.name(), r);
                active.remove(node.name());
                decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.RECOVERED, r.remedy().name(),
                        "healthy for " + policy.healthyDelay() + "; remediation ended"));
            } else if (r.healthySince() == null) {
                active.put(node.name(), r.withHealthySince(now));
            }
            return;
        }
        if (r.healthySince() != null) {
            r = r.withHealthySince(null);
            active.put(node.name(), r);
        }
        if (r.exhausted()) {
            return;
        }
        if (!r.started()) {
            escalate(r.policy(), r.rung(), node, view, now, "escalation was held back", decisions);
            return;
        }
        RemedyRunner.Progress progress = runner.progress(node.name(), r.remedy());
        boolean timedOut = !now.isBefore(Deadlines.plus(r.rungStarted(), r.remedy().timeout()));
        if (progress != RemedyRunner.Progress.FAILED && !timedOut) {
            return;
        }
        String why = progress == RemedyRunner.Progress.FAILED ? "remedy " + r.remedy().name() + " failed"
                : "remedy " + r.remedy().name() + " did not make the node healthy within " + r.remedy().timeout();
        if (progress != RemedyRunner.Progress.FAILED) {
            runner.cancel(node.name(), r.remedy(), RemedyRunner.Cancellation.TIMED_OUT, why);
            decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.CANCELLED, r.remedy().name(), why));
        }
        int next = r.rung() + 1;
        if (next < policy.escalation().size()) {
            escalate(policy, next, node, view, now, why, decisions);
        } else {
            active.put(node.name(), new Remediation(policy, r.rung(), r.rungStarted(), null, true, true));
            decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.EXHAUSTED, r.remedy().name(),
                    why + "; no remedy left: the node needs a person"));
        }
    }

    /**
     * Ends every external remedy the remediation started, as NodeHealthCheck deletes its remediation objects once the
     * node is healthy: those that failed and were escalated past stay until then (their remediator's record of what
     * it did), and the one still running is stopped. Cancelling is idempotent, so one already cancelled is harmless.
     */
    private void endExternalRemedies(String node, Remediation r) {
        int last = r.started() ? r.rung() : r.rung() - 1;
        for (int rung = 0; rung <= last; rung++) {
            Remedy remedy = r.policy().escalation().get(rung);
            if (remedy instanceof Remedy.External) {
                runner.cancel(node, remedy, RemedyRunner.Cancellation.NODE_HEALTHY, "node is healthy");
            }
        }
    }

    /**
     * Starts rung {@code rung}. A fence is a new fence: storm protection is asked first, and while it holds the
     * escalation back the node waits at that rung, not started, and is asked again at the next evaluation.
     */
    private void escalate(Policy policy, int rung, NodeStatus node, PoolView view, Instant now, String why,
                          List<PolicyDecision> decisions) {
        Remedy remedy = policy.escalation().get(rung);
        if (remedy instanceof Remedy.Fence) {
            Optional<String> held = gate.holdBack(node.name(), policy, view, now);
            if (held.isPresent()) {
                active.put(node.name(), new Remediation(policy, rung, now, null, false, false));
                noteHeld(node, policy, Kind.HELD, held.get(), now, decisions);
                return;
            }
        }
        lastHeld.remove(node.name());
        runner.start(node.name(), remedy, why + "; escalating", gate.raceDelay(node.name(), policy));
        active.put(node.name(), new Remediation(policy, rung, now, null, false, true));
        decisions.add(new PolicyDecision(now, node.name(), policy.name(), Kind.ESCALATED, remedy.name(), why));
    }

    private void noteHeld(NodeStatus node, Policy policy, Kind kind, String reason, Instant now,
                          List<PolicyDecision> decisions) {
        if (!reason.equals(lastHeld.put(node.name(), reason))) {
            decisions.add(new PolicyDecision(now, node.name(), policy.name(), kind, "", reason));
        }
    }

    /**
     * A node's remediation: the policy, which rung of the ladder and since when, whether it is healthy now, whether
     * the ladder ran out, and whether the rung's remedy started (an escalation to a fence may wait for admission).
     */
    private record Remediation(Policy policy, int rung, Instant rungStarted, Instant healthySince, boolean exhausted,
                               boolean started) {
        Remedy remedy() {
            return policy.escalation().get(rung);
        }

        Remediation withHealthySince(Instant since) {
            return new Remediation(policy, rung, rungStarted, since, exhausted, started);
        }
    }
}
