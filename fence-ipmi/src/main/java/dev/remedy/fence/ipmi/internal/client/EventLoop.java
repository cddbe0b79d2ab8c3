package dev.remedy.fence.ipmi.internal.client;

import dev.remedy.fence.ipmi.internal.protocol.IpmiMessage;
import dev.remedy.fence.ipmi.internal.protocol.LanplusPacket;
import dev.remedy.fence.ipmi.internal.protocol.MalformedPacketException;
import dev.remedy.fence.ipmi.internal.protocol.SessionlessPacket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One I/O thread with one UDP socket and one selector. Sessions, timers and packet handling all run on this
 * thread, so session state needs no locks; other threads hand work over with {@link #execute}. Incoming
 * datagrams are routed by the console session id (in the session header, or in the body of the Open Session
 * Response and RAKP 2 and 4), and session-less replies by sender and request sequence number.
 */
final class EventLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EventLoop.class);
    private static final int MAX_DATAGRAM = 1 << 16;
    private static final int SEQUENCES = 64;
    /** Exchanges awaiting an answer at once, per loop; more wait their turn. */
    static final int MAX_OUTSTANDING = 128;
    /** Cancelled timers tolerated in the queue before a sweep. */
    private static final int PURGE_THRESHOLD = 1024;
    /**
     * Socket receive buffer asked for: replies of a thousand BMCs can arrive while the loop is busy sending, and a
     * full buffer drops them (then only resending helps). The kernel caps it at {@code net.core.rmem_max}.
     */
    private static final int RECEIVE_BUFFER = 4 << 20;

    private final Selector selector;
    private final DatagramChannel channel;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private final Map<Integer, Receiver> sessions = new HashMap<>();
    private final Map<SessionlessKey, Consumer<IpmiMessage>> sessionless = new HashMap<>();
    private final Map<InetSocketAddress, Map<Integer, Receiver>> settingUp = new HashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final ArrayDeque<Runnable> admissions = new ArrayDeque<>();
    private int outstanding;
    private final ByteBuffer buffer = ByteBuffer.allocate(MAX_DATAGRAM);
    private volatile boolean running = true;
    private volatile int routes;
    private int nextSequence = 1;
    private long timerOrder;
    private int cancelledTimers;

    EventLoop(String name) {
        try {
            selector = Selector.open();
            channel = DatagramChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER);
            channel.bind(null);
            channel.register(selector, SelectionKey.OP_READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a UDP socket for IPMI: " + e.getMessage(), e);
        }
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Runs {@code task} on the loop's thread. */
    void execute(Runnable task) {
        if (!running) {
            throw new IllegalStateException("the IPMI client is closed");
        }
        tasks.add(task);
        selector.wakeup();
    }

    /** A fresh random source for the loop's thread (nonces, IVs, session ids). */
    SecureRandom random() {
        return random;
    }

    /** Runs {@code action} at {@code nanoTime} (loop thread only). */
    Timer schedule(long nanoTime, Runnable action) {
        Timer timer = new Timer(this, nanoTime, timerOrder++, action);
        timers.add(timer);
        return timer;
    }

    /** Counts a cancelled timer; once they are most of the queue, they are swept out (amortized O(1)). */
    private void cancelled() {
        if (++cancelledTimers > PURGE_THRESHOLD && cancelledTimers > timers.size() / 2) {
            timers.removeIf(timer -> timer.action == null);
            cancelledTimers = 0;
        }
    }

    /** Sends a datagram now; a full socket buffer drops it, which resending covers (loop thread only). */
    void send(InetSocketAddress to, byte[] datagram) {
        try {
            channel.send(ByteBuffer.wrap(datagram), to);
        } catch (IOException e) {
            LOG.debug("send to {} failed: {}", to, e.getMessage());
        }
    }

    /**
     * Runs {@code first} (the first send of an exchange) now if fewer than {@link #MAX_OUTSTANDING} exchanges
     * await answers, else when one ends. This keeps a burst of thousands of sessions from overflowing the
     * socket's receive buffer with replies (loop thread only). Every admitted exchange calls {@link #finished()}.
     */
    void admit(Runnable first) {
        if (outstanding < MAX_OUTSTANDING) {
            outstanding++;
            first.run();
        } else {
            admissions.add(first);
        }
    }

    /** Withdraws an exchange that was queued by {@link #admit} and has not started (loop thread only). */
    boolean withdraw(Runnable first) {
        return admissions.remove(first);
    }

    /** Ends an admitted exchange and starts the next queued one (loop thread only). */
    void finished() {
        outstanding--;
        Runnable next = admissions.poll();
        if (next != null) {
            outstanding++;
            next.run();
        }
    }

    /** Registers {@code receiver} under a fresh random console session id and returns the id (loop thread only). */
    int register(Receiver receiver) {
        int id;
        do {
            id = random.nextInt();
        } while (id == 0 || sessions.containsKey(id));
        sessions.put(id, receiver);
        countRoutes();
        return id;
    }

    /** Routes the datagrams of {@code id} to {@code receiver} from now on (loop thread only). */
    void reroute(int id, Receiver receiver) {
        sessions.put(id, receiver);
    }

    /** Stops routing datagrams for session {@code id} (loop thread only). */
    void unregister(int id) {
        sessions.remove(id);
        countRoutes();
    }

    /**
     * Also routes to session {@code id} the setup replies from {@code bmc} that are too short to name a session
     * (error replies of some BMCs carry only tag and status), until {@link #setUp} (loop thread only).
     */
    void settingUp(InetSocketAddress bmc, int id) {
        settingUp.computeIfAbsent(bmc, key -> new HashMap<>()).put(id, sessions.get(id));
    }

    /** Ends {@link #settingUp} for session {@code id} (loop thread only). */
    void setUp(InetSocketAddress bmc, int id) {
        Map<Integer, Receiver> pending = settingUp.get(bmc);
        if (pending != null && pending.remove(id) != null && pending.isEmpty()) {
            settingUp.remove(bmc);
        }
    }

    /**
     * Waits for a session-less reply from {@code from} and returns the request sequence number to put in the
     * request (loop thread only).
     */
    int expectSessionless(InetSocketAddress from, Consumer<IpmiMessage> handler) {
        for (int tries = 0; tries < SEQUENCES; tries++) {
            int sequence = nextSequence;
            nextSequence = nextSequence % (SEQUENCES - 1) + 1;
            if (sessionless.putIfAbsent(new SessionlessKey(from, sequence), handler) == null) {
                countRoutes();
                return sequence;
            }
        }
        throw new IllegalStateException("more than 63 session-less requests to " + from + " at once");
    }

    /** Forgets a session-less wait (loop thread only). */
    void forgetSessionless(InetSocketAddress from, int sequence) {
        sessionless.remove(new SessionlessKey(from, sequence));
        countRoutes();
    }

    /** Timers in the queue, cancelled ones not yet swept included (loop thread only; for tests). */
    int timersQueued() {
        return timers.size();
    }

    /** Sessions and session-less requests waiting for datagrams now (for tests and metrics). */
    int routes() {
        return routes;
    }

    private void countRoutes() {
        routes = sessions.size() + sessionless.size();
    }

    private void run() {
        while (running) {
            try {
                selector.select(selectTimeoutMillis());
                Runnable task;
                while ((task = tasks.poll()) != null) {
                    guarded(task);
                }
                readAll();
                fireDueTimers();
            } catch (IOException | RuntimeException e) {
                LOG.warn("IPMI I/O loop error, continuing", e);
            }
        }
    }

    private long selectTimeoutMillis() {
        if (!tasks.isEmpty()) {
            return 1;
        }
        Timer next = timers.peek();
        if (next == null) {
            return 0;
        }
        long millis = Math.floorDiv(next.at - System.nanoTime() + 999_999, 1_000_000);
        return Math.max(1, millis);
    }

    private void readAll() throws IOException {
        while (true) {
            buffer.clear();
            SocketAddress from = channel.receive(buffer);
            if (from == null) {
                return;
            }
            route(buffer.array(), buffer.position(), (InetSocketAddress) from);
        }
    }

    /**
     * Hands a received datagram to its receiver; one that is malformed is dropped. Loop thread only (package-private
     * for tests, which hand it datagrams as if received).
     */
    void route(byte[] datagram, int length, InetSocketAddress from) {
        try {
            if (SessionlessPacket.matches(datagram, length)) {
                IpmiMessage message = SessionlessPacket.decode(datagram, length);
                Consumer<IpmiMessage> handler = sessionless.remove(new SessionlessKey(from, message.sequence()));
                countRoutes();
                if (handler != null) {
                    handler.accept(message);
                }
                return;
            }
            int sessionId = LanplusPacket.consoleSessionId(datagram, length);
            if (sessionId == 0 && LanplusPacket.isSetupReply(datagram, length)) {
                for (Receiver setup : List.copyOf(settingUp.getOrDefault(from, Map.of()).values())) {
                    setup.receive(datagram, length, from);
                }
                return;
            }
            Receiver receiver = sessions.get(sessionId);
            if (receiver != null) {
                receiver.receive(datagram, length, from);
            }
        } catch (MalformedPacketException e) {
            LOG.debug("dropped a malformed datagram from {}: {}", from, e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("IPMI datagram handler failed", e);
        }
    }

    private void fireDueTimers() {
        long now = System.nanoTime();
        Timer timer;
        while ((timer = timers.peek()) != null && timer.at - now <= 0) {
            timers.poll();
            Runnable action = timer.action;
            if (action == null) {
                cancelledTimers = Math.max(0, cancelledTimers - 1);
            } else {
                timer.action = null;
                guarded(action);
            }
        }
    }

    private static void guarded(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            LOG.warn("IPMI task failed", e);
        }
    }

    /** Stops the thread and closes the socket; pending work is dropped. Idempotent. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        selector.wakeup();
        try {
            thread.join(1_000);
            channel.close();
            selector.close();
        } catch (IOException e) {
            LOG.debug("closing the IPMI socket: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A scheduled action; cancel it with {@link #cancel()}. */
    static final class Timer implements Comparable<Timer> {
        private final EventLoop loop;
        private final long at;
        private final long order;
        private Runnable action;

        private Timer(EventLoop loop, long at, long order, Runnable action) {
            this.loop = loop;
            this.at = at;
            this.order = order;
            this.action = action;
        }

        /** Keeps the action from running and lets go of it, so a cancelled timer holds nothing (loop thread only). */
        void cancel() {
            if (action != null) {
                action = null;
                loop.cancelled();
            }
        }

        @Override
        public int compareTo(Timer other) {
            int byTime = Long.compare(at - other.at, 0);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }

    private record SessionlessKey(InetSocketAddress from, int sequence) {
    }
}
