package dev.remedy.fence.kube.watch.internal;

import dev.remedy.core.flow.Observation;
import dev.remedy.core.policy.NodeCondition;
import dev.remedy.core.policy.NodeStatus;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Converts fabric8 {@link Node}s to remedy's {@link NodeStatus} and {@link Observation.Readiness}, reusing what did
 * not change since the node's previous event: an unchanged node (a heartbeat, a resync) yields the very status and
 * readiness given before. Stateless; the state is the caller's {@link NodeState}.
 */
public final class NodeConversion {

    private static final String READY = "Ready";

    private NodeConversion() {
    }

    /**
     * The node's status for the policy controller: name, labels and conditions (type, status, last transition).
     * A condition without a readable {@code lastTransitionTime} keeps the time of the same condition before, or else
     * counts from {@code now} (never from the past: an unknown time must not make a condition look old enough).
     *
     * @param withoutConditions give the node no condition (it is confirmed healthy by an administrator)
     * @return the status given before when labels and conditions did not change (same instance), else a new one
     */
    public static NodeStatus status(Node node, NodeState state, Instant now, boolean withoutConditions) {
        Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
        List<io.fabric8.kubernetes.api.model.NodeCondition> raw = withoutConditions || node.getStatus() == null
                || node.getStatus().getConditions() == null ? List.of() : node.getStatus().getConditions();
        NodeStatus previous = state.status;
        boolean sameConditions = previous != null && sameConditions(raw, previous.conditions(), state.rawTimes);
        boolean sameLabels = previous != null && previous.labels().equals(labels);
        if (sameConditions && sameLabels) {
            return previous;
        }
        List<NodeCondition> conditions;
        if (sameConditions) {
            conditions = previous.conditions();
        } else {
            List<NodeCondition> before = previous == null ? List.of() : previous.conditions();
            conditions = new ArrayList<>(raw.size());
            String[] times = new String[raw.size()];
            for (int i = 0; i < raw.size(); i++) {
                io.fabric8.kubernetes.api.model.NodeCondition c = raw.get(i);
                String type = c.getType() == null ? "" : c.getType();
                String status = c.getStatus() == null ? "Unknown" : c.getStatus();
                times[i] = c.getLastTransitionTime();
                conditions.add(new NodeCondition(type, status, transition(times[i], type, status, before, now)));
            }
            state.rawTimes = times;
        }
        NodeStatus converted = new NodeStatus(node.getMetadata().getName(),
                sameLabels ? previous.labels() : labels, conditions);
        state.status = converted;
        return converted;
    }

    /**
     * The node's readiness for the engine: whether it reports {@code Ready=True}, and when it booted when remedy
     * knows a time before which its current boot cannot have started. That time is known only once the node's
     * {@code status.nodeInfo.bootID} was seen to change: it is the last Ready heartbeat the previous boot posted
     * (that boot was alive then, so the new one started later). Before that, the boot time is empty: remedy never
     * guesses it, since a boot after the fencing decision counts as proof that the node stopped.
     *
     * @return the readiness given before when nothing changed (same instance), else a new one
     */
    public static Observation.Readiness readiness(Node node, NodeState state) {
        io.fabric8.kubernetes.api.model.NodeCondition ready = ready(node);
        boolean isReady = ready != null && "True".equals(ready.getStatus());
        trackBoot(node, ready, state);
        Observation.Readiness before = state.readiness;
        if (before != null && before.ready() == isReady
                && Objects.equals(before.bootedAt().orElse(null), state.bootedAfter)) {
            return before;
        }
        state.readiness = new Observation.Readiness(isReady, Optional.ofNullable(state.bootedAfter));
        return state.readiness;
    }

    private static void trackBoot(Node node, io.fabric8.kubernetes.api.model.NodeCondition ready, NodeState state) {
        String bootId = node.getStatus() == null || node.getStatus().getNodeInfo() == null ? null
                : node.getStatus().getNodeInfo().getBootID();
        if (bootId == null || bootId.isEmpty()) {
            return;
        }
        Instant heartbeat = ready == null ? null : parse(ready.getLastHeartbeatTime());
        if (state.bootId == null) {
            state.bootId = bootId;
            state.aliveAt = heartbeat;
        } else if (!bootId.equals(state.bootId)) {
            state.bootedAfter = later(state.bootedAfter, state.aliveAt);
            state.bootId = bootId;
            state.aliveAt = heartbeat;
        } else {
            state.aliveAt = later(state.aliveAt, heartbeat);
        }
    }

    private static io.fabric8.kubernetes.api.model.NodeCondition ready(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return null;
        }
        for (io.fabric8.kubernetes.api.model.NodeCondition c : node.getStatus().getConditions()) {
            if (READY.equals(c.getType())) {
                return c;
            }
        }
        return null;
    }

    private static boolean sameConditions(List<io.fabric8.kubernetes.api.model.NodeCondition> raw,
                                          List<NodeCondition> before, String[] rawTimes) {
        if (raw.size() != before.size() || rawTimes.length != before.size()) {
            return false;
        }
        for (int i = 0; i < raw.size(); i++) {
            io.fabric8.kubernetes.api.model.NodeCondition c = raw.get(i);
            NodeCondition b = before.get(i);
            if (!b.type().equals(c.getType() == null ? "" : c.getType())
                    || !b.status().equals(c.getStatus() == null ? "Unknown" : c.getStatus())
                    || !Objects.equals(rawTimes[i], c.getLastTransitionTime())) {
                return false;
            }
        }
        return true;
    }

    private static Instant transition(String raw, String type, String status, List<NodeCondition> before,
                                      Instant now) {
        Instant parsed = parse(raw);
        if (parsed != null) {
            return parsed;
        }
        for (NodeCondition b : before) {
            if (b.type().equals(type) && b.status().equals(status)) {
                return b.lastTransition();
            }
        }
        return now;
    }

    private static Instant parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(raw);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Instant later(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isAfter(b) ? a : b;
    }
}
