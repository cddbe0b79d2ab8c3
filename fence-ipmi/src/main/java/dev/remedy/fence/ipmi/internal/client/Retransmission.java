package dev.remedy.fence.ipmi.internal.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Sends one request and resends it until {@link #stop()} is called or the deadline passes: the first resend
 * after the configured interval, then at doubling intervals capped at {@link #MAX_INTERVAL}, never past the
 * deadline. The first send waits for the loop's admission (a bound on exchanges in flight); the deadline
 * counts from the start, waiting included. Loop thread only.
 */
final class Retransmission {

    /** The longest wait between two sends. */
    static final Duration MAX_INTERVAL = Duration.ofSeconds(2);

    private final EventLoop loop;
    private final InetSocketAddress to;
    private final Supplier<byte[]> packet;
    private final long deadline;
    private final Runnable onExpired;
    private final Runnable admitted = this::firstSend;
    private long interval;
    private EventLoop.Timer timer;
    private int sent;
    private boolean started;
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

    /** Sends the first datagram when admitted, or expires at once if the deadline has passed. */
    Retransmission start() {
        if (deadline - System.nanoTime() <= 0) {
            done = true;
            onExpired.run();
            return this;
        }
        timer = loop.schedule(deadline, this::onTimer);
        loop.admit(admitted);
        return this;
    }

    private void firstSend() {
        started = true;
        timer.cancel();
        if (done) {
            loop.finished();
        } else {
            transmit();
        }
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
            end();
            onExpired.run();
        } else {
            transmit();
        }
    }

    /** Stops resending; no expiry follows. */
    void stop() {
        if (!done) {
            end();
        }
    }

    private void end() {
        done = true;
        timer.cancel();
        if (started) {
            loop.finished();
        } else {
            loop.withdraw(admitted);
        }
    }

    /** How many datagrams were sent. */
    int sent() {
        return sent;
    }
}
