package dev.remedy.fence.ipmi.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Sends one request and resends it until {@link #stop()} is called or the deadline passes: the first resend
 * after the configured interval, then at doubling intervals capped at {@link #MAX_INTERVAL}, never past the
 * deadline. Loop thread only.
 */
final class Retransmission {

    /** The longest wait between two sends. */
    static final Duration MAX_INTERVAL = Duration.ofSeconds(2);

    private final EventLoop loop;
    private final InetSocketAddress to;
    private final Supplier<byte[]> packet;
    private final long deadline;
    private final Runnable onExpired;
    private long interval;
    private EventLoop.Timer timer;
    private int sent;
    private boolean done;

    /**
     * @param packet builds the datagram for each send (a resend inside a session needs a new sequence number)
     * @param deadline {@link System#nanoTime()} after which {@code onExpired} runs instead of another send
     */
    Retransmission(EventLoop loop, InetSocketAddress to, Supplier<byte[]> packet, long deadline, Duration first,
            Runnable onExpired) {
        this.loop = loop;
        this.to = to;
        this.packet = packet;
        this.deadline = deadline;
        this.interval = first.toNanos();
        this.onExpired = onExpired;
    }

    /** Sends the first datagram, or expires at once if the deadline has passed. */
    Retransmission start() {
        if (deadline - System.nanoTime() <= 0) {
            done = true;
            onExpired.run();
        } else {
            transmit();
        }
        return this;
    }

    private void transmit() {
        loop.send(to, packet.get());
        sent++;
        long now = System.nanoTime();
        long next = deadline - now < interval ? deadline : now + interval;
        interval = Math.min(interval * 2, MAX_INTERVAL.toNanos());
        timer = loop.schedule(next, this::onTimer);
    }

    private void onTimer() {
        if (done) {
            return;
        }
        if (deadline - System.nanoTime() <= 0) {
            done = true;
            onExpired.run();
        } else {
            transmit();
        }
    }

    /** Stops resending; no expiry follows. */
    void stop() {
        done = true;
        if (timer != null) {
            timer.cancel();
        }
    }

    /** How many datagrams were sent. */
    int sent() {
        return sent;
    }
}
