package dev.remedy.fence.redfish;

import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One Redfish system or PDU outlet. {@link #executeAsync} runs the whole action on the HTTP client's threads; {@link #execute}
 * waits for it, and an interrupt cancels it (the session is still logged out).
 */
final class RedfishFenceAgent implements FenceAgent {

    /** How long {@link #execute} waits past the deadline for the run to report (it stops by the deadline). */
    private static final Duration REPORT_GRACE = Duration.ofMillis(500);

    private final HttpClient http;
    private final Executor executor;
    private final RedfishSettings settings;
    private final RedfishTarget target;

    RedfishFenceAgent(HttpClient http, Executor executor, RedfishSettings settings, RedfishTarget target) {
        this.http = http;
        this.executor = executor;
        this.settings = settings;
        this.target = target;
    }

    @Override
    public FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        context.checkInterrupted();
        RedfishRun run = new RedfishRun(http, executor, settings, target, request, context);
        CompletableFuture<FenceOutcome> outcome = run.start();
        try {
            return outcome.get(context.remaining().plus(REPORT_GRACE).toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            run.cancel();
            throw e;
        } catch (TimeoutException e) {
            run.cancel();
            return FenceOutcome.timedOut(request.action() + " on Redfish service " + settings.base()
                    + " did not finish within " + context.budget().toMillis() + " ms").withElapsed(context.elapsed());
        } catch (ExecutionException e) {
            return FenceOutcome.failed(PowerState.UNKNOWN, request.action() + " on Redfish service "
                    + settings.base() + " failed unexpectedly: " + e.getCause()).withCause(e.getCause())
                    .withElapsed(context.elapsed());
        }
    }

    @Override
    public CompletableFuture<FenceOutcome> executeAsync(FenceRequest request, FenceContext context,
            Executor ignored) {
        RedfishRun run = new RedfishRun(http, executor, settings, target, request, context);
        CompletableFuture<FenceOutcome> outcome = run.start();
        outcome.whenComplete((result, error) -> {
            if (error instanceof CancellationException) {
                run.cancel();
            }
        });
        return outcome;
    }
}
