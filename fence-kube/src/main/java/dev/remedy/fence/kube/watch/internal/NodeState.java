package dev.remedy.fence.kube.watch.internal;

import dev.remedy.core.flow.Observation;
import dev.remedy.core.policy.NodeStatus;
import java.time.Instant;

/**
 * What the watcher remembers of one node between its events, to convert the next one without allocating what did
 * not change. Confined to the watcher's thread: not thread-safe.
 */
public final class NodeState {

    /** The status last given to the policy controller; null while the node is excluded or before the first. */
    NodeStatus status;
    /** The raw {@code lastTransitionTime} of each condition of {@link #status}, in order. */
    String[] rawTimes = new String[0];
    /** The boot id the node reported last ({@code status.nodeInfo.bootID}); null when never reported. */
    String bootId;
    /** The latest Ready heartbeat posted under {@link #bootId}: that boot was alive then. */
    Instant aliveAt;
    /** A time before which the current boot did not start, known only once the boot id was seen to change. */
    Instant bootedAfter;
    /** The readiness last sent to the engine. */
    Observation.Readiness readiness;
    /** The resourceVersion of the node's latest event. */
    String resourceVersion;
    /** The resourceVersion whose confirmed-healthy annotation remedy tried to remove (not tried twice). */
    String removalTriedFor;

    /** The status last given to the policy controller, or null. */
    public NodeStatus status() {
        return status;
    }

    /** Forgets the status given to the controller (the node is excluded or was forgotten). */
    public void clearStatus() {
        status = null;
        rawTimes = new String[0];
    }

    /** Whether the node reported {@code Ready=True} in its latest event. */
    public boolean ready() {
        return readiness != null && readiness.ready();
    }

    /** Notes the resourceVersion of the node's latest event. */
    public void seen(String version) {
        resourceVersion = version;
    }

    /** The resourceVersion of the node's latest event. */
    public String resourceVersion() {
        return resourceVersion;
    }

    /** The resourceVersion whose confirmed-healthy annotation remedy last tried to remove, or null. */
    public String removalTriedFor() {
        return removalTriedFor;
    }

    /** Notes that removal of the confirmed-healthy annotation was tried at {@code resourceVersion}. */
    public void removalTried(String resourceVersion) {
        removalTriedFor = resourceVersion;
    }
}
