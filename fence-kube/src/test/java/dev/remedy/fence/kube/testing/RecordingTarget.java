package dev.remedy.fence.kube.testing;

import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The object a fake controller moves, as the conformance kit sees it: its power read from the API server, set behind
 * the agent's back through the fake, and the power changes the fake {@link #record records}. Thread-safe: the fake
 * records from its own thread.
 */
public final class RecordingTarget implements PowerTarget {

    private final Supplier<PowerState> read;
    private final Consumer<PowerState> set;
    private final List<PowerState> history = Collections.synchronizedList(new ArrayList<>());

    /** A target whose power {@code read} reads and {@code set} sets (recording it is the setter's part). */
    public RecordingTarget(Supplier<PowerState> read, Consumer<PowerState> set) {
        this.read = read;
        this.set = set;
    }

    /** Adds a power change to the history. */
    public void record(PowerState state) {
        history.add(state);
    }

    @Override
    public PowerState power() {
        return read.get();
    }

    @Override
    public void power(PowerState state) {
        set.accept(state);
    }

    @Override
    public List<PowerState> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    @Override
    public void clearHistory() {
        history.clear();
    }
}
