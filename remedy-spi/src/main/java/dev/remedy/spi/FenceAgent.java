package dev.remedy.spi;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Performs fence actions against one configured target (a BMC, a PDU outlet, a switch port, a cluster node).
 * Created by {@link FenceAgentProvider#create}.
 *
 * <p>Blocking: {@link #execute} blocks the calling thread until the action is confirmed, fails, or the
 * context's deadline passes; it never waits past {@link FenceContext#remaining()}.
 *
 * <p>Threading: the caller runs at most one action per agent at a time; an agent need not be thread-safe
 * for concurrent {@code execute} calls, but {@link #close()} may come from another thread.
 */
public interface FenceAgent extends AutoCloseable {

    /**
     * Performs {@code request} within {@code context}'s deadline.
     *
     * <p>Power changes succeed only when the new state is read back: OFF succeeds when STATUS reads OFF (an
     * OFF request against a target that is already off succeeds at once); REBOOT is OFF confirmed then ON.
     * Device, transport and credential failures are outcomes ({@link FenceStatus#FAILED},
     * {@link FenceStatus#TIMED_OUT}, {@link FenceStatus#REFUSED}), never exceptions, and never
     * {@link FenceStatus#SUCCEEDED}. Actions the agent does not implement return {@link FenceStatus#UNSUPPORTED}.
     *
     * @return the outcome; never null
     * @throws InterruptedException if the thread is interrupted; the action stops as soon as it can
     */
    FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException;

    /**
     * Performs {@code request} without blocking the caller, with the same contract as {@link #execute}. The
     * default runs {@link #execute} on {@code executor}; an agent with non-blocking I/O (one UDP selector, an
     * asynchronous HTTP client) overrides it so that many actions in flight need few threads. Cancelling the
     * future stops the action as soon as it can (the default interrupts nothing: it cannot reach the thread).
     *
     * @param executor runs blocking work; agents with their own I/O threads may ignore it
     * @return the outcome; an action interrupted on the executor's thread fails the future with
     *     {@link java.util.concurrent.CancellationException}
     */
    default CompletableFuture<FenceOutcome> executeAsync(FenceRequest request, FenceContext context,
            Executor executor) {
        CompletableFuture<FenceOutcome> result = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                result.complete(execute(request, context));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                result.completeExceptionally(new CancellationException(request.action() + " was interrupted"));
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /**
     * Checks that the device is reachable and accepts the credentials, without changing power. The default
     * runs {@link FenceAction#MONITOR}.
     *
     * @throws InterruptedException if the thread is interrupted
     */
    default FenceOutcome validate(FenceContext context) throws InterruptedException {
        return execute(new FenceRequest(FenceAction.MONITOR, "validate"), context);
    }

    /** Releases sessions, sockets and threads held by this agent. Idempotent; the default does nothing. */
    @Override
    default void close() {
    }
}
