package dev.remedy.fence.ipmi.internal.client;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * A non-blocking RMCP+ client: a fixed number of I/O threads (one by default), each with one UDP socket and one
 * selector, serving any number of concurrent sessions with any number of BMCs. When a login lists several
 * cipher suites, the suite a BMC accepted for that user is remembered and proposed alone next time, without
 * asking the BMC's cipher suites again; when the BMC refuses it, it is forgotten and the suites asked. Thread-safe; create one per
 * process and share it. Closing it stops the threads and drops open sessions without closing them on the BMC,
 * so close sessions first.
 */
public final class IpmiClient implements AutoCloseable {

    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final List<EventLoop> loops;
    private final AtomicInteger next = new AtomicInteger();
    private final SuiteMemory suites = new SuiteMemory();

    private IpmiClient(int threads) {
        int client = CLIENTS.incrementAndGet();
        loops = IntStream.range(0, threads)
                .mapToObj(i -> new EventLoop("remedy-ipmi-" + client + "-io-" + i))
                .toList();
    }

    /** A client with one I/O thread. */
    public static IpmiClient create() {
        return create(1);
    }

    /**
     * A client with {@code ioThreads} I/O threads.
     *
     * @throws IllegalArgumentException unless 1 &le; ioThreads &le; 64
     */
    public static IpmiClient create(int ioThreads) {
        if (ioThreads < 1 || ioThreads > 64) {
            throw new IllegalArgumentException("ioThreads must be 1..64, was " + ioThreads
                    + "; one thread serves thousands of BMCs");
        }
        return new IpmiClient(ioThreads);
    }

    /** The number of I/O threads. */
    public int ioThreads() {
        return loops.size();
    }

    /**
     * Opens a session. The future fails with an {@link IpmiException} whose kind says why, at the latest when
     * {@code timeout} has passed; cancelling it abandons the setup and frees the BMC's session slot.
     *
     * @param packets counts every datagram sent for this session (setup and commands), for the debug log
     */
    public CompletableFuture<IpmiSession> open(BmcLogin login, Duration timeout, AtomicInteger packets) {
        Objects.requireNonNull(login, "login");
        Objects.requireNonNull(packets, "packets");
        CompletableFuture<IpmiSession> result = new CompletableFuture<>();
        new Handshake(nextLoop(), login, suites, System.nanoTime() + timeout.toNanos(), result, packets).start();
        return result;
    }

    /**
     * A future completed on an I/O thread after {@code delay}, for waits between polls without a thread.
     * Cancelling it drops the timer.
     */
    public CompletableFuture<Void> delay(Duration delay) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        long at = System.nanoTime() + delay.toNanos();
        EventLoop loop = nextLoop();
        loop.execute(() -> {
            EventLoop.Timer timer = loop.schedule(at, () -> done.complete(null));
            done.whenComplete((v, error) -> {
                if (error != null) {
                    loop.execute(timer::cancel);
                }
            });
        });
        return done;
    }

    private EventLoop nextLoop() {
        return loops.get(Math.floorMod(next.getAndIncrement(), loops.size()));
    }

    /** Opens a session without counting datagrams. */
    public CompletableFuture<IpmiSession> open(BmcLogin login, Duration timeout) {
        return open(login, timeout, new AtomicInteger());
    }

    /**
     * Sessions open or being set up, plus requests outside a session awaiting an answer, over all threads: 0 when
     * the client holds nothing (an estimate while sessions open or close).
     */
    public int pendingRoutes() {
        return loops.stream().mapToInt(EventLoop::routes).sum();
    }

    /** Stops the I/O threads and closes the sockets. Idempotent. */
    @Override
    public void close() {
        loops.forEach(EventLoop::close);
    }
}
