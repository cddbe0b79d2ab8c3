package dev.remedy.core.flow;

import dev.remedy.spi.RemedyException;

/** A transition the table does not allow: a bug in the flow or a corrupted record. */
public class IllegalTransitionException extends RemedyException {

    private final String node;
    private final FenceState from;
    private final FenceState to;

    /** An exception naming the node and both states. */
    public IllegalTransitionException(String node, FenceState from, FenceState to) {
        super("illegal fence transition for node '" + node + "': " + from + " -> " + to + "; legal from " + from
                + ": " + Transitions.from(from));
        this.node = node;
        this.from = from;
        this.to = to;
    }

    /** The node. */
    public String node() {
        return node;
    }

    /** The state the flow was in. */
    public FenceState from() {
        return from;
    }

    /** The state it was asked to enter. */
    public FenceState to() {
        return to;
    }
}
