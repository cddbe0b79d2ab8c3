package dev.remedy.core.event;

import dev.remedy.core.flow.FenceEvent;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The last finished operations, per node and overall, bounded in both, and the last alerts (a flow that gave up,
 * a host left off, a record that could not be saved or was lost), bounded like the operations overall. A
 * {@link FenceEventListener}; query it for what happened to a node. Thread-safe.
 */
public final class FencingHistory implements FenceEventListener {

    /** Default bound per node. */
    public static final int DEFAULT_PER_NODE = 50;
    /** Default bound overall (Pacemaker keeps 500). */
    public static final int DEFAULT_OVERALL = 500;

    private final int perNode;
    private final int overall;
    private final Map<String, Deque<FenceEvent.OperationFinished>> byNode = new HashMap<>();
    private final Deque<FenceEvent.OperationFinished> all = new ArrayDeque<>();
    private final Deque<FenceEvent.Alert> alerts = new ArrayDeque<>();

    /** A history keeping {@code perNode} operations per node and {@code overall} in all. */
    public FencingHistory(int perNode, int overall) {
        if (perNode < 1 || overall < 1) {
            throw new IllegalArgumentException("history bounds must be positive: perNode=" + perNode
                    + ", overall=" + overall);
        }
        this.perNode = perNode;
        this.overall = overall;
    }

    /** A history with the default bounds. */
    public FencingHistory() {
        this(DEFAULT_PER_NODE, DEFAULT_OVERALL);
    }

    @Override
    public synchronized void onEvent(FenceEvent event) {
        if (event instanceof FenceEvent.OperationFinished finished) {
            Deque<FenceEvent.OperationFinished> mine = byNode.computeIfAbsent(finished.node(),
                    n -> new ArrayDeque<>(Math.min(perNode, 8)));
            add(mine, finished, perNode);
            add(all, finished, overall);
        } else if (event instanceof FenceEvent.Alert alert) {
            add(alerts, alert, overall);
        }
    }

    /** The last alerts of every node, oldest first. */
    public synchronized List<FenceEvent.Alert> alerts() {
        return List.copyOf(alerts);
    }

    /** The last alerts of {@code node}, oldest first. */
    public synchronized List<FenceEvent.Alert> alertsOf(String node) {
        return alerts.stream().filter(a -> a.node().equals(node)).toList();
    }

    /** The last operations of {@code node}, oldest first. */
    public synchronized List<FenceEvent.OperationFinished> of(String node) {
        return List.copyOf(byNode.getOrDefault(node, new ArrayDeque<>()));
    }

    /** The last operations of every node, oldest first. */
    public synchronized List<FenceEvent.OperationFinished> all() {
        return List.copyOf(all);
    }

    private static <T> void add(Deque<T> queue, T event, int bound) {
        queue.addLast(event);
        while (queue.size() > bound) {
            queue.removeFirst();
        }
    }
}
