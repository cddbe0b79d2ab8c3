package dev.remedy.simulators.redfish;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults a {@link RedfishSimulator} injects, set from any thread. Planned failures ({@link #failNext} and
 * {@link #serviceUnavailable}) answer the next requests in the order they were planned, before authentication,
 * whatever the path. {@link #override} replaces the answers for one path with any bytes (for clients fed malformed
 * answers), and {@link #oversizedBody} makes one resource arbitrarily large without the simulator holding it.
 * Thread-safe.
 */
public final class RedfishFaults {

    /** How long an asynchronous Reset task runs when {@link #asyncResets(boolean)} turns tasks on. */
    public static final Duration DEFAULT_TASK_DURATION = Duration.ofMillis(500);

    /**
     * A planned failure: {@code remaining} more requests answer {@code status} (0: the connection is dropped, -1: the
     * request is never answered).
     */
    record Failure(int status, Duration retryAfter) {

        /** Whether the connection is closed without an answer. */
        boolean dropsConnection() {
            return status == 0;
        }

        /** Whether the request is held without an answer until the client gives up. */
        boolean unanswered() {
            return status == -1;
        }
    }

    /** The longest a request is held unanswered (the client has long given up by then). */
    static final Duration UNANSWERED_HOLD = Duration.ofMinutes(1);

    private static final class Planned {
        final Failure failure;
        int remaining;

        Planned(Failure failure, int remaining) {
            this.failure = failure;
            this.remaining = remaining;
        }
    }

    /** An answer served as given, instead of the service's, for every request of one path. */
    record RawAnswer(int status, Map<String, String> headers, byte[] body) {
    }

    /** A resource served with padding up to {@code bytes} bytes, with or without a Content-Length. */
    record Oversized(long bytes, boolean declareLength) {
    }

    private final Sessions sessions;
    private final ArrayDeque<Planned> planned = new ArrayDeque<>();
    private final Map<String, AtomicInteger> unansweredPaths = new ConcurrentHashMap<>();
    private volatile CountDownLatch unansweredRelease = new CountDownLatch(1);
    private final Map<String, RawAnswer> overrides = new ConcurrentHashMap<>();
    private final Map<String, Oversized> oversized = new ConcurrentHashMap<>();
    private final AtomicLong oversizedBytesSent = new AtomicLong();
    private final AtomicInteger invalidJson = new AtomicInteger();
    private volatile Duration slowResponses = Duration.ZERO;
    private volatile Duration taskDuration;
    private volatile boolean echoCredentials;
    private volatile boolean basicBeforeRouting;

    RedfishFaults(Sessions sessions) {
        this.sessions = sessions;
    }

    /**
     * Delays every response by {@code delay} (real time, on the server's worker thread; {@code ZERO} turns it
     * off).
     *
     * @throws IllegalArgumentException if negative
     */
    public RedfishFaults slowResponses(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("slowResponses " + delay + " must not be negative");
        }
        this.slowResponses = delay;
        return this;
    }

    /** The delay added to every response. */
    public Duration slowResponses() {
        return slowResponses;
    }

    /**
     * Answers the next {@code count} requests (after those already planned) with {@code status} and a Redfish
     * error body ({@code Base.1.8.InternalError} for 500, {@code Base.1.8.GeneralError} otherwise).
     *
     * @throws IllegalArgumentException if the count is negative or the status is not 400 to 599
     */
    public RedfishFaults failNext(int count, int status) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("failNext: status " + status + " must be an error, 400 to 599");
        }
        return plan(count, new Failure(status, null), "failNext");
    }

    /**
     * Answers the next {@code count} requests (after those already planned) with 503, a {@code Retry-After}
     * header in whole seconds (rounded up) and a {@code Base.1.8.ServiceTemporarilyUnavailable} error body.
     *
     * @throws IllegalArgumentException if the count or the delay is negative
     */
    public RedfishFaults serviceUnavailable(int count, Duration retryAfter) {
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("serviceUnavailable: retryAfter " + retryAfter
                    + " must not be negative");
        }
        return plan(count, new Failure(503, retryAfter), "serviceUnavailable");
    }

    /**
     * Closes the connection of the next {@code count} requests (after those already planned) without a byte of
     * answer and without acting on them, as a BMC does when it drops a kept-alive connection.
     *
     * @throws IllegalArgumentException if the count is negative
     */
    public RedfishFaults dropConnectionsNext(int count) {
        return plan(count, new Failure(0, null), "dropConnectionsNext");
    }

    /**
     * Never answers the next {@code count} requests (after those already planned): each is read and held open without
     * a byte of answer and without being acted on, until the client gives up (or {@link #clear()}, the simulator's
     * close, or a minute), as a BMC whose web server hangs does. Each holds a worker thread.
     *
     * @throws IllegalArgumentException if the count is negative
     */
    public RedfishFaults unansweredNext(int count) {
        return plan(count, new Failure(-1, null), "unansweredNext");
    }

    /**
     * Never answers the next {@code count} requests for {@code path} (any method, after the planned failures), as
     * {@link #unansweredNext(int)} does: for a client that gets no answer to one request of an action (its reset).
     *
     * @throws IllegalArgumentException if the count is negative
     */
    public RedfishFaults unanswered(String path, int count) {
        Objects.requireNonNull(path, "path");
        if (count < 0) {
            throw new IllegalArgumentException("unanswered: count " + count + " must not be negative");
        }
        unansweredPaths.computeIfAbsent(path, p -> new AtomicInteger()).addAndGet(count);
        return this;
    }

    /** Makes every current session token invalid: the next request that uses one answers 401. */
    public RedfishFaults expireSessions() {
        sessions.expireAll();
        return this;
    }

    /**
     * Makes the next {@code count} response bodies (of any status; responses without a body do not count)
     * broken JSON: the real body cut in half.
     *
     * @throws IllegalArgumentException if negative
     */
    public RedfishFaults invalidJsonNext(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("invalidJsonNext " + count + " must not be negative");
        }
        invalidJson.addAndGet(count);
        return this;
    }

    /**
     * Makes ComputerSystem.Reset asynchronous ({@code true}, each task running {@link #DEFAULT_TASK_DURATION})
     * or synchronous again ({@code false}).
     *
     * @see #asyncResets(Duration)
     */
    public RedfishFaults asyncResets(boolean enabled) {
        this.taskDuration = enabled ? DEFAULT_TASK_DURATION : null;
        return this;
    }

    /**
     * Makes ComputerSystem.Reset answer 202 Accepted with a {@code Location} header naming a task monitor. The
     * monitor answers 202 (with the Task) until the task has run {@code taskDuration} on the spec's clock, then
     * 204; the power change starts when the task completes (plus the system's power change delay).
     *
     * @throws IllegalArgumentException if negative
     */
    public RedfishFaults asyncResets(Duration taskDuration) {
        Objects.requireNonNull(taskDuration, "taskDuration");
        if (taskDuration.isNegative()) {
            throw new IllegalArgumentException("asyncResets: taskDuration " + taskDuration
                    + " must not be negative");
        }
        this.taskDuration = taskDuration;
        return this;
    }

    /** How long Reset tasks run, if Reset is asynchronous. */
    public Optional<Duration> asyncResets() {
        return Optional.ofNullable(taskDuration);
    }

    /**
     * Makes the service echo the credentials it is sent back in 400 replies ({@code true}), as careless BMC firmware
     * does, or stops it ({@code false}). A request with a body (a session login carries the password in it) is
     * answered with that body (its JSON, re-serialized) as the reply body, not a Redfish error; a request with an
     * {@code Authorization} header (HTTP Basic) is answered with a Redfish error whose message quotes the header.
     * Requests with neither are answered as usual, and planned failures come first. For tests that a client keeps
     * echoed secrets out of what it reports.
     */
    public RedfishFaults echoCredentials(boolean enabled) {
        this.echoCredentials = enabled;
        return this;
    }

    /** Whether the service echoes the credentials it is sent. */
    public boolean echoCredentials() {
        return echoCredentials;
    }

    /**
     * Makes the service behave as a common emulator with authentication on ({@code true}) or as usual
     * ({@code false}): its service root advertises no {@code SessionService} and no {@code Links.Sessions}, and every
     * request without valid HTTP Basic credentials, the service root and a session POST included, answers 401 before
     * it is routed (an {@code X-Auth-Token} is not looked at). Planned failures come first.
     */
    public RedfishFaults basicBeforeRouting(boolean enabled) {
        this.basicBeforeRouting = enabled;
        return this;
    }

    /** Whether the service checks HTTP Basic credentials before routing and advertises no sessions. */
    public boolean basicBeforeRouting() {
        return basicBeforeRouting;
    }

    /**
     * Answers every request for {@code path} (any method, before authentication; planned failures come first) with
     * exactly {@code status}, {@code headers} and {@code body}, instead of the service's answer, until
     * {@link #clear()}. No {@code Content-Type} is added. For clients fed malformed, hostile or odd answers: bodies
     * that are not JSON or not UTF-8, resources of the wrong shape, strange {@code Location}, {@code X-Auth-Token} or
     * {@code Retry-After} headers.
     *
     * @param path the request path, e.g. {@code /redfish/v1/Systems/node-1}
     * @param body the body bytes (copied), or {@code null} for none
     * @throws IllegalArgumentException if the status is not 200 to 599 or a header has a line break
     */
    public RedfishFaults override(String path, int status, Map<String, String> headers, byte[] body) {
        Objects.requireNonNull(path, "path");
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("override: status " + status + " must be 200 to 599");
        }
        headers.forEach((name, value) -> {
            if (name.isEmpty() || (name + value).chars().anyMatch(c -> c == '\r' || c == '\n')) {
                throw new IllegalArgumentException("override: header '" + name + "' cannot be sent: an empty name or"
                        + " a line break");
            }
        });
        overrides.put(path, new RawAnswer(status, Map.copyOf(headers), body == null ? null : body.clone()));
        return this;
    }

    /**
     * Answers a successful GET of {@code path} with a body of {@code bytes} bytes: the resource's JSON with a
     * {@code Padding} string property in front, so that it is still the resource, streamed in chunks that the
     * simulator never holds at once. With {@code declareLength} the response has a {@code Content-Length}, else it is
     * sent chunked. How many body bytes went out before the client stopped reading is
     * {@link #oversizedBytesSent()}. Until {@link #clear()}.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public RedfishFaults oversizedBody(String path, long bytes, boolean declareLength) {
        Objects.requireNonNull(path, "path");
        if (bytes < 0) {
            throw new IllegalArgumentException("oversizedBody: " + bytes + " bytes must not be negative");
        }
        oversized.put(path, new Oversized(bytes, declareLength));
        return this;
    }

    /** The body bytes of {@link #oversizedBody} responses that went out, over all of them. */
    public long oversizedBytesSent() {
        return oversizedBytesSent.get();
    }

    /**
     * Clears every fault: no delay, no planned failure, no broken JSON, synchronous resets, no echo, no overrides or
     * oversized bodies, sessions advertised again, held requests let go. Sessions stay.
     */
    public RedfishFaults clear() {
        synchronized (planned) {
            planned.clear();
        }
        unansweredPaths.clear();
        CountDownLatch held = unansweredRelease;
        unansweredRelease = new CountDownLatch(1);
        held.countDown();
        overrides.clear();
        oversized.clear();
        invalidJson.set(0);
        slowResponses = Duration.ZERO;
        taskDuration = null;
        echoCredentials = false;
        basicBeforeRouting = false;
        return this;
    }

    private RedfishFaults plan(int count, Failure failure, String what) {
        if (count < 0) {
            throw new IllegalArgumentException(what + ": count " + count + " must not be negative");
        }
        if (count > 0) {
            synchronized (planned) {
                planned.add(new Planned(failure, count));
            }
        }
        return this;
    }

    /** Takes an unanswered request planned for {@code path}, if any. */
    boolean takeUnanswered(String path) {
        AtomicInteger left = unansweredPaths.get(path);
        return left != null && left.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }

    /** Holds an unanswered request: until {@link #clear()}, an interrupt or {@link #UNANSWERED_HOLD}. */
    void holdUnanswered() {
        try {
            unansweredRelease.await(UNANSWERED_HOLD.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes the failure planned for this request, if any. */
    Failure takeFailure() {
        synchronized (planned) {
            Planned next = planned.peekFirst();
            if (next == null) {
                return null;
            }
            if (--next.remaining == 0) {
                planned.pollFirst();
            }
            return next.failure;
        }
    }

    /** The override of {@code path}, if any. */
    Optional<RawAnswer> overrideOf(String path) {
        return Optional.ofNullable(overrides.get(path));
    }

    /** How a GET of {@code path} is made oversized, if it is. */
    Optional<Oversized> oversizedOf(String path) {
        return Optional.ofNullable(oversized.get(path));
    }

    /** Counts body bytes sent by an oversized response. */
    void oversizedSent(long bytes) {
        oversizedBytesSent.addAndGet(bytes);
    }

    /** Whether this response body is to be broken (consumes one). */
    boolean takeInvalidJson() {
        return invalidJson.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }

    @Override
    public String toString() {
        synchronized (planned) {
            return "RedfishFaults[slow=" + slowResponses + ", planned=" + planned.size() + ", invalidJson="
                    + invalidJson.get() + ", asyncResets=" + taskDuration + ", echoCredentials=" + echoCredentials
                    + ", basicBeforeRouting=" + basicBeforeRouting                    + ", overrides=" + overrides.keySet() + ", oversized=" + oversized.keySet() + "]";
        }
    }
}
