package dev.remedy.core.engine.crash;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.Taint;
import dev.remedy.core.engine.crash.JournalLine.Event;
import dev.remedy.core.flow.NodeFence;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * A cluster whose every change is a line in the {@link CrashLab}'s journal, forced to disk before the call returns.
 * Before each release (out-of-service taint, pods or Node object deleted) it journals the node's record as saved on
 * disk, which is what the release must be justified by. Each call first waits a few milliseconds, as an API server
 * answers, so that a kill can land while it is under way.
 */
final class JournalCluster implements ClusterOperations {

    private final CrashLab lab;
    private final Function<String, Optional<NodeFence>> saved;

    /** A cluster journaling to {@code lab}; {@code saved} reads a node's record from disk. */
    JournalCluster(CrashLab lab, Function<String, Optional<NodeFence>> saved) {
        this.lab = lab;
        this.saved = saved;
    }

    @Override
    public void cordon(String node) {
        change(Event.CORDON, node, false);
    }

    @Override
    public void uncordon(String node) {
        change(Event.UNCORDON, node, false);
    }

    @Override
    public void addTaint(String node, Taint taint) {
        change(Event.TAINT, node, Taint.OUT_OF_SERVICE.equals(taint), "key", taint.key());
    }

    @Override
    public void removeTaint(String node, Taint taint) {
        change(Event.UNTAINT, node, false, "key", taint.key());
    }

    @Override
    public void deletePods(String node) {
        change(Event.DELETE_PODS, node, true);
    }

    @Override
    public void deleteNode(String node) {
        change(Event.DELETE_NODE, node, true);
    }

    @Override
    public void restoreNode(String node) {
        change(Event.RESTORE_NODE, node, false);
    }

    private void change(Event event, String node, boolean release, String... keyValues) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(2, 16));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(event + " of " + node + " interrupted", e);
        }
        if (release) {
            lab.saved(node, saved.apply(node));
        }
        lab.append(event, node, keyValues);
    }
}
