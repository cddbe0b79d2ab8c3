package dev.remedy.test.cluster;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.Taint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Nodes in memory, changed through {@link ClusterOperations}: the reference implementation of
 * {@link dev.remedy.test.conformance.ClusterOperationsContract}. A deleted node keeps its state as its backup and
 * gets it back when restored. Pods vanish as they are deleted, so the wait for released workloads is the interface's
 * default, which returns at once (and is not logged). Every call is logged ({@code "cordon n1"}); a test
 * can make the next calls on a node fail, and watch calls as they happen (to check an invariant at the moment of
 * a release, for example). Thread-safe.
 */
public final class SimulatedCluster implements ClusterOperations {

    private final Map<String, SimulatedNode> nodes = new ConcurrentHashMap<>();
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    private volatile Consumer<String> watcher = call -> { };

    /** Adds a Ready, schedulable node with {@code pods} pods. */
    public SimulatedCluster node(String name, int pods) {
        nodes.put(name, new SimulatedNode(pods));
        return this;
    }

    /** Makes the next {@code count} calls on {@code node} throw. */
    public SimulatedCluster failNext(String node, int count) {
        failures.put(node, count);
        return this;
    }

    /** Calls {@code watcher} with each call ({@code "delete-pods n1"}) before it takes effect. */
    public SimulatedCluster watch(Consumer<String> callWatcher) {
        this.watcher = callWatcher;
        return this;
    }

    /** Every call so far, in order. */
    public List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    /** Whether {@code node} is cordoned. */
    public boolean cordoned(String node) {
        return node(node).cordoned;
    }

    /** The taints of {@code node}. */
    public synchronized Set<Taint> taints(String node) {
        return Set.copyOf(node(node).taints);
    }

    /** Whether the Node object of {@code node} exists (it is deleted by {@link #deleteNode}). */
    public boolean exists(String node) {
        return !node(node).deleted;
    }

    /** How many pods run on {@code node}. */
    public int pods(String node) {
        return node(node).pods;
    }

    @Override
    public void cordon(String node) {
        change(node, "cordon", n -> n.cordoned = true);
    }

    @Override
    public void uncordon(String node) {
        change(node, "uncordon", n -> n.cordoned = false);
    }

    @Override
    public void addTaint(String node, Taint taint) {
        change(node, "add-taint " + taint.key(), n -> n.taints.add(taint));
    }

    @Override
    public void removeTaint(String node, Taint taint) {
        change(node, "remove-taint " + taint.key(), n -> n.taints.remove(taint));
    }

    @Override
    public void deletePods(String node) {
        change(node, "delete-pods", n -> n.pods = 0);
    }

    @Override
    public void deleteNode(String node) {
        change(node, "delete-node", n -> n.deleted = true);
    }

    @Override
    public void restoreNode(String node) {
        change(node, "restore-node", n -> n.deleted = false);
    }

    private synchronized void change(String node, String verb, Consumer<SimulatedNode> action) {
        String call = verb + " " + node;
        watcher.accept(call);
        log.add(call);
        int failing = failures.getOrDefault(node, 0);
        if (failing > 0) {
            failures.put(node, failing - 1);
            throw new IllegalStateException("simulated API failure on " + call);
        }
        action.accept(node(node));
    }

    private SimulatedNode node(String name) {
        SimulatedNode node = nodes.get(name);
        if (node == null) {
            throw new IllegalArgumentException("no node '" + name + "' in the simulated cluster; add it with node()");
        }
        return node;
    }

    /** One node's mutable state. */
    private static final class SimulatedNode {
        private boolean cordoned;
        private boolean deleted;
        private final Set<Taint> taints = new LinkedHashSet<>();
        private int pods;

        SimulatedNode(int pods) {
            this.pods = pods;
        }
    }
}
