package dev.remedy.core.engine;

import dev.remedy.core.flow.Observation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The work of nodes whose record could not be saved: kept in order and tried again with backoff until the store
 * takes it, so a failing store leaves each flow where it was and loses nothing. Callers hold the node's lock.
 */
final class Backlog {

    /** The first wait before trying a failed save again; it doubles up to {@link #LONGEST_WAIT}. */
    static final Duration FIRST_WAIT = Duration.ofSeconds(1);
    /** The longest wait between two tries. */
    static final Duration LONGEST_WAIT = Duration.ofMinutes(1);
    /** Work kept per node; a readiness report replaces the previous one, so only admin commands can fill it. */
    static final int MAX_WORK = 100;

    /** Something the engine was asked to do for a node. */
    sealed interface Work {
        /** Start a flow. */
        record Decide(String reason, Duration raceDelay) implements Work {
        }

        /** Apply an observation. */
        record Observe(Observation observation) implements Work {
        }

        /** Hold the node for an admin, because its record was lost. */
        record Hold(String reason) implements Work {
        }
    }

    /** Why a node's saves fail, since when, and when to try again. */
    record Failing(Instant since, int tries, Instant nextTry, String problem) {
        String describe() {
            return "saving its fence record fails since " + since + " (" + tries + (tries == 1 ? " try" : " tries")
                    + ", next at " + nextTry + "): " + problem;
        }
    }

    private final Map<String, Deque<Work>> work = new ConcurrentHashMap<>();
    private final Map<String, Failing> failing = new ConcurrentHashMap<>();

    /** Whether {@code node} has work waiting for its store. */
    boolean has(String node) {
        return failing.containsKey(node);
    }

    /**
     * Keeps {@code item} behind the node's waiting work; whether it was kept (a tick is never kept: trying again
     * is a tick).
     */
    boolean add(String node, Work item) {
        if (item instanceof Work.Observe o && o.observation() instanceof Observation.Tick) {
            return true;
        }
        Deque<Work> queue = work.computeIfAbsent(node, n -> new ArrayDeque<>());
        if (item instanceof Work.Observe o && o.observation() instanceof Observation.Readiness) {
            queue.removeIf(w -> w instanceof Work.Observe q && q.observation() instanceof Observation.Readiness);
        }
        if (queue.size() >= MAX_WORK) {
            return false;
        }
        queue.addLast(item);
        return true;
    }

    /** The node's next waiting work, if any. */
    Optional<Work> next(String node) {
        return Optional.ofNullable(work.get(node)).map(Deque::peekFirst);
    }

    /** Drops the node's next waiting work (it was saved). */
    void done(String node) {
        Deque<Work> queue = work.get(node);
        if (queue != null) {
            queue.pollFirst();
        }
    }

    /** Notes a failed save of {@code node}; whether it is the first of a run of failures. */
    boolean failed(String node, Instant now, String problem) {
        Failing before = failing.get(node);
        int tries = before == null ? 1 : before.tries() + 1;
        Duration wait = FIRST_WAIT.multipliedBy(1L << Math.min(tries - 1, 16));
        wait = wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
        failing.put(node, new Failing(before == null ? now : before.since(), tries, now.plus(wait), problem));
        return before == null;
    }

    /** Ends the node's run of failures; how long it lasted, if it had one. */
    Optional<Failing> recovered(String node) {
        work.remove(node);
        return Optional.ofNullable(failing.remove(node));
    }

    /** Nodes whose next try is due at {@code now}. */
    List<String> due(Instant now) {
        return failing.entrySet().stream().filter(e -> !now.isBefore(e.getValue().nextTry())).map(Map.Entry::getKey)
                .toList();
    }

    /** Every node whose saves fail, with why. */
    Map<String, String> describe() {
        Map<String, String> out = new TreeMap<>();
        failing.forEach((node, f) -> out.put(node, f.describe()));
        return out;
    }
}
