package dev.remedy.fence.ipmi;

import dev.remedy.fence.ipmi.internal.client.IpmiClient;
import dev.remedy.fence.ipmi.internal.client.IpmiSession;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One BMC. {@link #executeAsync} runs the whole action on the client's I/O threads (no thread waits for the
 * BMC); {@link #execute} waits for it, and an interrupt cancels it, which closes the session. With
 * {@code session_reuse} the session stays open between actions until {@link #close()}.
 */
final class IpmiFenceAgent implements FenceAgent {


    private final IpmiClient client;
    private final IpmiSettings settings;
    /** How long a kept session may sit idle: BMCs drop idle sessions after about a minute. */
    static final Duration MAX_IDLE = Duration.ofSeconds(20);

    private IpmiSession kept;
    private long keptAt;

    IpmiFenceAgent(IpmiClient client, IpmiSettings settings) {
        this.client = client;
        this.settings = settings;
    }

    @Override
    public FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        context.checkInterrupted();
        IpmiRun run = new IpmiRun(client, settings, request, context, this);
        return context.await(request.action(), "BMC " + settings.bmc(), run.start(), run::cancel);
    }

    @Override
    public CompletableFuture<FenceOutcome> executeAsync(FenceRequest request, FenceContext context,
            Executor executor) {
        IpmiRun run = new IpmiRun(client, settings, request, context, this);
        CompletableFuture<FenceOutcome> outcome = run.start();
        outcome.whenComplete((result, error) -> {
            if (error instanceof CancellationException) {
                run.cancel();
            }
        });
        return outcome;
    }

    /**
     * The kept session if reuse is on and it is open and fresh, else {@code null} (a stale one is closed). The
     * caller owns it until it gives it back with {@link #keep}.
     */
    synchronized IpmiSession takeKept() {
        IpmiSession session = kept;
        kept = null;
        if (session == null || !session.isOpen()) {
            return null;
        }
        if (System.nanoTime() - keptAt > MAX_IDLE.toNanos()) {
            session.close();
            return null;
        }
        return session;
    }

    /**
     * Keeps {@code session} for the next action if reuse is on; returns whether it was kept (if not, the
     * caller closes it).
     */
    synchronized boolean keep(IpmiSession session) {
        if (!settings.sessionReuse() || kept != null || !session.isOpen()) {
            return false;
        }
        kept = session;
        keptAt = System.nanoTime();
        return true;
    }

    @Override
    public void close() {
        IpmiSession session = takeKept();
        if (session != null) {
            session.close();
        }
    }
}
