package dev.remedy.simulators.ipmi;

import dev.remedy.simulators.ScheduledPowerTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Many simulated IPMI v2.0 BMCs in one JVM, each on its own UDP port on 127.0.0.1, all served by one daemon
 * selector thread named {@value #THREAD_NAME}. Adding a thousand BMCs takes milliseconds; the per-datagram path
 * reuses its buffers and its HMAC and AES instances.
 *
 * <pre>{@code
 * try (IpmiBmcSimulator sim = IpmiBmcSimulator.start()) {
 *     SimulatedBmc bmc = sim.add(BmcSpec.builder().user("admin", "remedy-secret").build());
 *     // point a client at bmc.host():bmc.port(), then check bmc.powerTarget().history()
 * }
 * }</pre>
 *
 * Thread-safe. {@link #close()} unbinds every port and stops the thread.
 */
public final class IpmiBmcSimulator implements AutoCloseable {

    /** The name of the selector thread. */
    public static final String THREAD_NAME = "remedy-bmc-simulator";

    private static final Logger LOG = LoggerFactory.getLogger(IpmiBmcSimulator.class);
    private static final long SWEEP_MILLIS = 250;
    private static final int READS_PER_WAKEUP = 64;

    private final Selector selector;
    private final Thread thread;
    private final List<SimulatedBmc> bmcs = new CopyOnWriteArrayList<>();
    private final Random random = new SecureRandom();
    private final Crypto crypto = new Crypto();
    private final ByteBuffer inBuffer = ByteBuffer.allocate(Crypto.MAX_DATAGRAM);
    private final byte[] out = new byte[Crypto.MAX_DATAGRAM];
    private final ByteBuffer outBuffer = ByteBuffer.wrap(out);
    private final Object lifecycle = new Object();
    private volatile boolean closed;

    private IpmiBmcSimulator(Selector selector) {
        this.selector = selector;
        this.thread = new Thread(this::run, THREAD_NAME);
        this.thread.setDaemon(true);
    }

    /**
     * Starts the selector thread, with no BMC yet.
     *
     * @throws UncheckedIOException if no selector can be opened
     */
    public static IpmiBmcSimulator start() {
        try {
            IpmiBmcSimulator simulator = new IpmiBmcSimulator(Selector.open());
            simulator.thread.start();
            return simulator;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for the BMC simulator", e);
        }
    }

    /**
     * Adds a BMC on a fresh UDP port of 127.0.0.1; it answers at once.
     *
     * @throws IllegalStateException if the simulator is closed
     * @throws UncheckedIOException if no port can be bound
     */
    public SimulatedBmc add(BmcSpec spec) {
        return addMany(1, spec).get(0);
    }

    /**
     * Adds {@code count} BMCs alike, each on its own port (and with its own random GUID unless the spec fixes
     * one), for fleet tests and benchmarks.
     *
     * @throws IllegalArgumentException if {@code count} is below 1
     * @throws IllegalStateException if the simulator is closed
     * @throws UncheckedIOException if the ports cannot be bound (the ones already bound are released)
     */
    public List<SimulatedBmc> addMany(int count, BmcSpec spec) {
        Objects.requireNonNull(spec, "spec");
        if (count < 1) {
            throw new IllegalArgumentException("addMany: count " + count + " must be at least 1");
        }
        List<SimulatedBmc> added = new ArrayList<>(count);
        synchronized (lifecycle) {
            requireOpen();
            try {
                for (int i = 0; i < count; i++) {
                    added.add(open(spec));
                }
            } catch (IOException | RuntimeException e) {
                added.forEach(IpmiBmcSimulator::closeQuietly);
                if (e instanceof IOException io) {
                    throw new UncheckedIOException("cannot bind a UDP port on 127.0.0.1 for BMC " + (added.size() + 1)
                            + " of " + count + ": " + e.getMessage() + " (raise the open-files limit for big fleets)",
                            io);
                }
                throw (RuntimeException) e;
            }
            bmcs.addAll(added);
        }
        selector.wakeup();
        return List.copyOf(added);
    }

    /** Every BMC added, in order. */
    public List<SimulatedBmc> bmcs() {
        return List.copyOf(bmcs);
    }

    /** Whether the simulator still serves (not closed). */
    public boolean running() {
        return !closed && thread.isAlive();
    }

    /** Unbinds every port and stops the thread (waits up to 5 s for it). Idempotent. */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
        }
        selector.wakeup();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (thread.isAlive()) {
            LOG.warn("BMC simulator thread did not stop within 5 s; closing its ports");
        }
        releaseAll();
    }

    private SimulatedBmc open(BmcSpec spec) throws IOException {
        DatagramChannel channel = DatagramChannel.open();
        try {
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            channel.configureBlocking(false);
            byte[] guid = spec.guid().orElseGet(() -> {
                byte[] random16 = new byte[16];
                random.nextBytes(random16);
                return random16;
            });
            ScheduledPowerTarget power = new ScheduledPowerTarget(spec.initialPower(), System::nanoTime);
            BmcProtocol protocol = new BmcProtocol(spec, guid, power, System::nanoTime, random);
            SimulatedBmc bmc = new SimulatedBmc(spec, channel, (InetSocketAddress) channel.getLocalAddress(), power,
                    protocol);
            channel.register(selector, SelectionKey.OP_READ, bmc);
            return bmc;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the BMC simulator is closed; start a new one with IpmiBmcSimulator.start()");
        }
    }

    private void run() {
        long nextSweep = System.nanoTime();
        try {
            while (!closed) {
                selector.select(this::serve, SWEEP_MILLIS);
                long now = System.nanoTime();
                if (now - nextSweep >= 0) {
                    nextSweep = now + TimeUnit.MILLISECONDS.toNanos(SWEEP_MILLIS);
                    for (SimulatedBmc bmc : bmcs) {
                        bmc.expire();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                LOG.error("BMC simulator thread stopped", e);
            }
        } finally {
            releaseAll();
        }
    }

    private void serve(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        SimulatedBmc bmc = (SimulatedBmc) key.attachment();
        DatagramChannel channel = (DatagramChannel) key.channel();
        for (int i = 0; i < READS_PER_WAKEUP; i++) {
            inBuffer.clear();
            SocketAddress from;
            try {
                from = channel.receive(inBuffer);
            } catch (IOException e) {
                LOG.debug("receive failed on {}", bmc, e);
                return;
            }
            if (from == null) {
                return;
            }
            try {
                bmc.receive(inBuffer.array(), inBuffer.position(), from, out, outBuffer, crypto);
            } catch (IOException | RuntimeException e) {
                LOG.warn("datagram from {} to {} failed", from, bmc, e);
            }
        }
    }

    private void releaseAll() {
        synchronized (lifecycle) {
            for (SimulatedBmc bmc : bmcs) {
                closeQuietly(bmc);
            }
            try {
                selector.close();
            } catch (IOException e) {
                LOG.debug("closing the selector failed", e);
            }
        }
    }

    private static void closeQuietly(SimulatedBmc bmc) {
        try {
            bmc.channel().close();
        } catch (IOException e) {
            LOG.debug("closing {} failed", bmc, e);
        }
    }

    @Override
    public String toString() {
        return "IpmiBmcSimulator[" + bmcs.size() + " BMCs" + (closed ? ", closed" : "") + "]";
    }
}
