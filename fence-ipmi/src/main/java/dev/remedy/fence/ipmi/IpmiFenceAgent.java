package dev.remedy.fence.ipmi;

import dev.remedy.fence.ipmi.client.IpmiClient;
import dev.remedy.fence.ipmi.client.IpmiSession;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One BMC. {@link #executeAsync} runs the whole action on the client's I/O threads (no thread waits for the
 * BMC); {@link #execute} waits for it, and an interrupt cancels it, which closes the session. With
 * {@code session_reuse} the session stays open between actions until {@link #close()}.
 */
final class IpmiFenceAgent implements FenceAgent {

    /** How long {@link #execute} waits past the deadline for the run to report (it stops by the deadline). */
    private static final Duration REPORT_GRACE = Duration.ofMillis(500);

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
        CompletableFuture<FenceOutcome> outcome = run.start();
        try {
            return outcome.get(context.remaining().plus(REPORT_GRACE).toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            run.cancel();
            throw e;
        } catch (TimeoutException e) {
            run.cancel();
            return FenceOutcome.timedOut(request.action() + " on BMC " + settings.bmc() + " did not finish within "
                    + context.budget().toMillis() + " ms").withElapsed(context.elapsed());
        } catch (ExecutionException e) {
            return FenceOutcome.failed(PowerState.UNKNOWN, request.action() + " on BMC "
                    + settings.bmc() + " failed unexpectedly: " + e.getCause()).withCause(e.getCause())
                    .withElapsed(context.elapsed());
        }
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
