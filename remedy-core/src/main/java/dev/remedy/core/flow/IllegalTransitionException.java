package dev.remedy.core.flow;

import dev.remedy.spi.RemedyException;
import java.util.Optional;

/**
 * A transition a table of {@link Transitions} does not allow: a bug in the flow or a corrupted record. The message
 * names the node, both states (and stages) and the legal targets.
 */
public class IllegalTransitionException extends RemedyException {

    private final String node;
    private final FenceState from;
    private final FenceState to;
    private final Optional<Stage> fromStage;
    private final Optional<Stage> toStage;

    /** An exception naming the node and both states. */
    public IllegalTransitionException(String node, FenceState from, FenceState to) {
        super("illegal fence transition for node '" + node + "': " + from + " -> " + to + "; legal from " + from
                + ": " + Transitions.from(from));
        this.node = node;
        this.from = from;
        this.to = to;
        this.fromStage = Optional.empty();
        this.toStage = Optional.empty();
    }

    /** An exception naming the node and both stages. */
    public IllegalTransitionException(String node, Stage from, Stage to) {
        super("illegal fence transition for node '" + node + "': stage " + from + " (" + from.state() + ") -> "
                + to + " (" + to.state() + "); legal from " + from + ": " + Transitions.from(from));
        this.node = node;
        this.from = from.state();
        this.to = to.state();
        this.fromStage = Optional.of(from);
        this.toStage = Optional.of(to);
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

    /** The stage the flow was in, when a stage transition was refused. */
    public Optional<Stage> fromStage() {
        return fromStage;
    }

    /** The stage it was asked to enter, when a stage transition was refused. */
    public Optional<Stage> toStage() {
        return toStage;
    }
}
