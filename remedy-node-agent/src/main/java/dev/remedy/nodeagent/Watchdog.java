package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.WatchdogMode;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * How a node agent resets its node: a watchdog device it feeds while healthy, or a fallback without one. Opened
 * (and, for a device, armed) by {@link Watchdogs#open}; the agent calls {@link #feed()} at a third of the
 * {@link #timeout()} while it is healthy enough to, {@link #trigger()} once it decided its node is unhealthy, and
 * {@link #close(boolean)} when it stops.
 *
 * <p>Implementations are called from the agent's two threads (the check and the feeder): they are thread-safe. Every
 * method blocks at most for one small write.
 */
public interface Watchdog extends AutoCloseable {

    /** How this watchdog resets the node, as the agent reports it in its Lease. */
    WatchdogMode mode();

    /** The device's timeout, when {@link #mode()} is {@link WatchdogMode#ARMED}; empty otherwise. */
    Optional<Duration> timeout();

    /**
     * Keeps the node up for another {@link #timeout()}. Does nothing after {@link #trigger()}, and for the fallbacks.
     *
     * @throws IOException if the device cannot be written
     */
    void feed() throws IOException;

    /**
     * The node is unhealthy: a device is never fed again (the node resets when its timeout runs out), the software
     * reboot writes {@code b} to the sysrq trigger at once, and with neither nothing happens. Idempotent.
     *
     * @throws IOException if the software reboot cannot write the trigger
     */
    void trigger() throws IOException;

    /**
     * Stops the watchdog. A device is disarmed (the magic close, {@code V}) only when {@code clean} is true, the
     * settings allow it and {@link #trigger()} was never called; otherwise it stays armed and resets the node.
     *
     * @param clean whether this is a clean shutdown of a healthy agent
     */
    void close(boolean clean);

    /** {@link #close(boolean) close(false)}: an agent that stops without saying why leaves its device armed. */
    @Override
    default void close() {
        close(false);
    }
}
