package dev.remedy.fence.redfish;

import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import java.net.http.HttpClient;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One Redfish system or PDU outlet. {@link #executeAsync} runs the whole action on the HTTP client's threads; {@link #execute}
 * waits for it, and an interrupt cancels it (the session is still logged out).
 */
final class RedfishFenceAgent implements FenceAgent {


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
        return context.await(request.action(), "Redfish service " + settings.base(), run.start(), run::cancel);
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
