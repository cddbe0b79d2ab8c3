package dev.remedy.spi.discovery;

import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * An agent whose every text passes through a {@link SecretScrubber}: outcome details, causes and plugs, the
 * exceptions it throws or fails its futures with (errors of the JVM, such as {@link OutOfMemoryError}, pass as they
 * are), the progress messages it reports, and its {@code toString}. Cancelling a future it returned cancels the
 * wrapped agent's. Made by {@link FenceAgentRegistry#create}; as thread-safe as the agent it wraps.
 */
final class ScrubbingFenceAgent implements FenceAgent {

    private final FenceAgent agent;
    private final SecretScrubber scrubber;

    ScrubbingFenceAgent(FenceAgent agent, SecretScrubber scrubber) {
        this.agent = agent;
        this.scrubber = scrubber;
    }

    @Override
    public FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        try {
            return scrubber.scrub(agent.execute(request, scrubbing(context)));
        } catch (InterruptedException e) {
            throw scrubber.scrub(e);
        } catch (RuntimeException e) {
            throw scrubber.scrub(e);
        }
    }

    @Override
    public CompletableFuture<FenceOutcome> executeAsync(FenceRequest request, FenceContext context,
            Executor executor) {
        CompletableFuture<FenceOutcome> running;
        try {
            running = agent.executeAsync(request, scrubbing(context), executor);
        } catch (RuntimeException e) {
            throw scrubber.scrub(e);
        }
        CompletableFuture<FenceOutcome> result = new CompletableFuture<>();
        running.whenComplete((outcome, error) -> {
            if (error == null) {
                result.complete(scrubber.scrub(outcome));
            } else {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                result.completeExceptionally(cause instanceof Error ? cause : scrubber.scrub(cause));
            }
        });
        result.whenComplete((outcome, error) -> {
            if (result.isCancelled()) {
                running.cancel(true);
            }
        });
        return result;
    }

    @Override
    public FenceOutcome validate(FenceContext context) throws InterruptedException {
        try {
            return scrubber.scrub(agent.validate(scrubbing(context)));
        } catch (InterruptedException e) {
            throw scrubber.scrub(e);
        } catch (RuntimeException e) {
            throw scrubber.scrub(e);
        }
    }

    @Override
    public void close() {
        try {
            agent.close();
        } catch (RuntimeException e) {
            throw scrubber.scrub(e);
        }
    }

    /** The wrapped agent's {@code toString}, scrubbed. */
    @Override
    public String toString() {
        return scrubber.scrub(agent.toString());
    }

    private FenceContext scrubbing(FenceContext context) {
        return context.withProgress(message -> context.progress(scrubber.scrub(message)));
    }
}
