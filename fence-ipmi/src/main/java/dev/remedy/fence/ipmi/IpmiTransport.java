package dev.remedy.fence.ipmi;

import dev.remedy.fence.ipmi.internal.client.IpmiClient;

/**
 * The UDP I/O that {@code ipmi} agents share: a fixed number of I/O threads (one by default), each with one socket
 * and one selector, serving any number of concurrent sessions with any number of BMCs. Hand one to
 * {@link IpmiFenceAgentProvider#IpmiFenceAgentProvider(IpmiTransport)} to choose the threads and when they stop;
 * without one, a provider creates its own at the first {@code create}. Thread-safe; one per process is enough.
 * Closing it stops the threads and drops open sessions without closing them on the BMC, so close it after the
 * agents' actions have finished.
 */
public final class IpmiTransport implements AutoCloseable {

    private final IpmiClient client;

    private IpmiTransport(IpmiClient client) {
        this.client = client;
    }

    /** A transport with one I/O thread, which serves thousands of BMCs. */
    public static IpmiTransport create() {
        return new IpmiTransport(IpmiClient.create());
    }

    /**
     * A transport with {@code ioThreads} I/O threads.
     *
     * @throws IllegalArgumentException unless 1 &le; ioThreads &le; 64
     */
    public static IpmiTransport create(int ioThreads) {
        return new IpmiTransport(IpmiClient.create(ioThreads));
    }

    /** The number of I/O threads. */
    public int ioThreads() {
        return client.ioThreads();
    }

    IpmiClient client() {
        return client;
    }

    /** Stops the I/O threads and closes the sockets. Idempotent. */
    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "IpmiTransport[" + ioThreads() + " I/O threads]";
    }
}
