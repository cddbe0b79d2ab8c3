package dev.remedy.core.engine;

import java.util.Objects;

/**
 * What the engine hands its executor: one operation of one node, already persisted as in flight. Custom executors
 * can route or meter by {@link #node()}; tests use it to check that a node never has two operations queued.
 */
public final class OperationTask implements Runnable {

    private final String node;
    private final String operationId;
    private final Runnable body;

    OperationTask(String node, String operationId, Runnable body) {
        this.node = Objects.requireNonNull(node, "node");
        this.operationId = Objects.requireNonNull(operationId, "operationId");
        this.body = Objects.requireNonNull(body, "body");
    }

    /** The node the operation belongs to. */
    public String node() {
        return node;
    }

    /** The operation's id, as persisted in the node's record. */
    public String operationId() {
        return operationId;
    }

    /** Runs the operation and feeds its result back to the engine. */
    @Override
    public void run() {
        body.run();
    }

    @Override
    public String toString() {
        return "OperationTask[" + operationId + "]";
    }
}
