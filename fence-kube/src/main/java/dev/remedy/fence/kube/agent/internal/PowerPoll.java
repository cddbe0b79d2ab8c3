package dev.remedy.fence.kube.agent.internal;

import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** Reads an object until a check ends the action or the deadline passes. */
public final class PowerPoll {

    /** One read of the object: the outcome that ends the action, or empty to read again. */
    @FunctionalInterface
    public interface Check {
        /**
         * Reads once.
         *
         * @throws InterruptedException if the thread is interrupted
         */
        Optional<FenceOutcome> read() throws InterruptedException;
    }

    private PowerPoll() {
    }

    /**
     * Runs {@code check} every {@code interval} until it returns an outcome; TIMED_OUT, with the last state read,
     * once the deadline passes.
     *
     * @param waitingFor what is awaited, for progress and the timeout's detail ({@code "BareMetalHost metal3/h1 to
     *                   read status.poweredOn=false"})
     * @param lastSeen   what was read last, for the timeout's detail
     * @throws InterruptedException if the thread is interrupted
     */
    public static FenceOutcome until(FenceContext context, Duration interval, String waitingFor, Check check,
            Supplier<String> lastSeen) throws InterruptedException {
        for (int poll = 1; ; poll++) {
            Optional<FenceOutcome> done = check.read();
            if (done.isPresent()) {
                return done.get();
            }
            if (!context.expired()) {
                context.progress("waiting for " + waitingFor + ", read " + poll);
                context.sleep(interval);
            }
            if (context.expired()) {
                return FenceOutcome.timedOut("waited " + context.elapsed().toMillis() + " ms for " + waitingFor
                        + " (budget " + context.budget().toMillis() + " ms, " + poll + " reads); last read: "
                        + lastSeen.get());
            }
        }
    }
}
