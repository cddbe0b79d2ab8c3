package dev.remedy.spi;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The deadline, clock and progress channel of one agent call. Created by the caller (the engine, the CLI, a
 * test) for each action; agents read {@link #remaining()} before every wait and never wait past it.
 *
 * <p>Interruption: {@link #sleep(Duration)} and {@link #checkInterrupted()} throw {@link InterruptedException}
 * when the calling thread is interrupted; agents let it propagate (or return a non-success outcome and restore
 * the interrupt flag).
 *
 * <p>Instances are confined to the thread running the action, except {@link #remaining()} which any thread may read.
 */
public final class FenceContext {

    /** How long {@link #await} waits past the deadline for an asynchronous action to report. */
    public static final Duration REPORT_GRACE = Duration.ofMillis(500);

    private static final System.Logger LOG = System.getLogger(FenceContext.class.getName());
    /** Budgets are capped so that deadline arithmetic cannot overflow. */
    private static final long MAX_BUDGET_NANOS = Long.MAX_VALUE / 4;

    private final TimeSource time;
    private final long startNanos;
    private final long budgetNanos;
    private final ProgressListener progress;

    private FenceContext(TimeSource time, Duration budget, ProgressListener progress) {
        this.time = Objects.requireNonNull(time, "time");
        this.progress = Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(budget, "budget");
        if (budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("a fence action needs a positive time budget, was " + budget);
        }
        this.budgetNanos = budget.compareTo(Duration.ofNanos(MAX_BUDGET_NANOS)) > 0 ? MAX_BUDGET_NANOS : budget.toNanos();
        this.startNanos = time.nanoTime();
    }

    private FenceContext(FenceContext started, ProgressListener progress) {
        this.time = started.time;
        this.startNanos = started.startNanos;
        this.budgetNanos = started.budgetNanos;
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** Starts a context now, with {@code budget} until the deadline. */
    public static FenceContext start(TimeSource time, Duration budget, ProgressListener progress) {
        return new FenceContext(time, budget, progress);
    }

    /** Starts a context now, with {@code budget} until the deadline and no progress listener. */
    public static FenceContext start(TimeSource time, Duration budget) {
        return new FenceContext(time, budget, ProgressListener.NONE);
    }

    /**
     * This context's clock, start and deadline, reporting progress to {@code listener} instead: for an agent that
     * wraps another and passes its progress on, rewritten.
     */
    public FenceContext withProgress(ProgressListener listener) {
        return new FenceContext(this, listener);
    }

    /** The clock of this action. */
    public TimeSource time() {
        return time;
    }

    /** The whole budget this action was given. */
    public Duration budget() {
        return Duration.ofNanos(budgetNanos);
    }

    /** Time since the context started. */
    public Duration elapsed() {
        return Duration.ofNanos(Math.max(0, time.nanoTime() - startNanos));
    }

    /** Time left until the deadline; zero once it has passed. */
    public Duration remaining() {
        long left = budgetNanos - (time.nanoTime() - startNanos);
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    /** Whether the deadline has passed. */
    public boolean expired() {
        return remaining().isZero();
    }

    /** The smaller of {@code wanted} and the time left. */
    public Duration cap(Duration wanted) {
        Duration left = remaining();
        return wanted.compareTo(left) < 0 ? wanted : left;
    }

    /**
     * Waits for {@code duration}, or until the deadline if that comes first.
     *
     * @throws InterruptedException if the thread is interrupted before or while waiting
     */
    public void sleep(Duration duration) throws InterruptedException {
        checkInterrupted();
        Duration wait = cap(duration);
        if (!wait.isZero() && !wait.isNegative()) {
            time.sleep(wait);
        }
    }

    /**
     * Throws if the calling thread has been interrupted (and clears the flag, as {@link Thread#interrupted()} does).
     *
     * @throws InterruptedException if the thread is interrupted
     */
    public void checkInterrupted() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("fence action interrupted");
        }
    }

    /** Reports progress to the caller. A failing listener is logged and ignored. */
    public void progress(String message) {
        try {
            progress.onProgress(message);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "progress listener failed; ignored", e);
        }
    }

    /**
     * Waits for an action that runs asynchronously, which is how an agent with its own non-blocking I/O implements
     * {@link FenceAgent#execute}. Waits at most the remaining time plus {@link #REPORT_GRACE} (the action itself
     * stops by the deadline; the grace lets it report). An interrupt, or the wait running out, calls
     * {@code cancel} so the action stops and releases what it holds.
     *
     * @param target the device, for the outcome's detail, e.g. {@code BMC 10.0.0.5:623}
     * @return the action's outcome; TIMED_OUT if it did not report in time; FAILED if it failed with an exception
     * @throws InterruptedException if the thread is interrupted while waiting (after {@code cancel} ran)
     */
    public FenceOutcome await(FenceAction action, String target, CompletableFuture<FenceOutcome> outcome,
            Runnable cancel) throws InterruptedException {
        try {
            return outcome.get(remaining().plus(REPORT_GRACE).toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            cancel.run();
            throw e;
        } catch (TimeoutException e) {
            cancel.run();
            return FenceOutcome.timedOut(action + " on " + target + " did not finish within " + budget().toMillis()
                    + " ms").withElapsed(elapsed());
        } catch (ExecutionException e) {
            return FenceOutcome.failed(PowerState.UNKNOWN, action + " on " + target + " failed unexpectedly: "
                    + e.getCause()).withCause(e.getCause()).withElapsed(elapsed());
        }
    }
}
