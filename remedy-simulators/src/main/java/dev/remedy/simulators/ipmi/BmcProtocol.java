package dev.remedy.simulators.ipmi;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.simulators.ipmi.BmcSession.State;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The server side of one simulated BMC, without sockets: {@link #handle} turns one received datagram into the
 * datagram to send back (or none). RMCP presence ping, IPMI 1.5 and RMCP+ session-less messages, the RMCP+
 * handshake ({@link Handshake}) and in-session IPMI messages ({@link BmcCommands}). Every method but the
 * counters and {@link #failNext} must be called from one thread at a time (the simulator thread).
 */
final class BmcProtocol {

    /** A closed session lingers this long to answer a retransmitted Close Session. */
    static final long CLOSED_LINGER_NANOS = 2_000_000_000L;

    final BmcSpec spec;
    final byte[] guid;
    final ScheduledPowerTarget power;
    final LongSupplier nanoClock;
    final Random random;
    final Map<Integer, BmcSession> sessions = new HashMap<>();

    private final Handshake handshake = new Handshake(this);
    private final BmcCommands commands = new BmcCommands(this);
    private final Map<Integer, Queue<Integer>> failures = new ConcurrentHashMap<>();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicLong opened = new AtomicLong();
    final AtomicLong resets = new AtomicLong();
    private final List<Integer> chassisControls = new ArrayList<>();
    private final List<Integer> proposedSuites = new ArrayList<>();
    private final AtomicLong cipherSuitesQueries = new AtomicLong();
    private volatile List<Integer> cipherSuites;

    BmcProtocol(BmcSpec spec, byte[] guid, ScheduledPowerTarget power, LongSupplier nanoClock, Random random) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.guid = guid.clone();
        this.power = Objects.requireNonNull(power, "power");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.random = Objects.requireNonNull(random, "random");
        this.cipherSuites = spec.cipherSuites();
    }

    /** The cipher suites enabled now: the spec's until {@link #cipherSuites(List)} changes them. */
    List<Integer> cipherSuites() {
        return cipherSuites;
    }

    /** Enables other cipher suites from now on, as an administrator reconfiguring the BMC would. */
    void cipherSuites(List<Integer> ids) {
        this.cipherSuites = List.copyOf(ids);
    }

    /** Get Channel Cipher Suites requests received, answered or not (each page and retransmission counts). */
    long cipherSuitesQueries() {
        return cipherSuitesQueries.get();
    }

    /**
     * Answers one datagram.
     *
     * @param in the datagram, from index 0
     * @param length its length
     * @param out where the answer goes, at least {@link Crypto#MAX_DATAGRAM} bytes
     * @return the answer's length, 0 for no answer
     */
    int handle(byte[] in, int length, byte[] out, Crypto crypto) {
        if (length < 5 || in[0] != 0x06 || (in[3] & 0x80) != 0) {
            return 0;
        }
        int rmcpClass = in[3] & 0x1f;
        if (rmcpClass == 0x06) {
            return presencePong(in, length, out);
        }
        if (rmcpClass != 0x07) {
            return 0;
        }
        return switch (in[4] & 0x0f) {
            case 0x00 -> sessionless15(in, length, out);
            case 0x06 -> rmcpPlus(in, length, out, crypto);
            default -> 0;
        };
    }

    private int presencePong(byte[] in, int length, byte[] out) {
        if (length < 12 || Wire.i32(in, 4) != 0xbe110000 || in[8] != (byte) 0x80) {
            return 0;
        }
        byte[] pong = {0x06, 0x00, (byte) 0xff, 0x06, 0x00, 0x00, 0x11, (byte) 0xbe, 0x40, in[9], 0x00, 0x10,
            0x00, 0x00, 0x11, (byte) 0xbe, 0, 0, 0, 0, (byte) 0x81, 0, 0, 0, 0, 0, 0, 0};
        System.arraycopy(pong, 0, out, 0, pong.length);
        return pong.length;
    }

    private int sessionless15(byte[] in, int length, byte[] out) {
        if (length < 14 || Wire.i32(in, 9) != 0) {
            return 0;
        }
        int messageLength = Wire.u8(in, 13);
        if (14 + messageLength > length) {
            return 0;
        }
        IpmiRequest request = IpmiRequest.decode(in, 14, messageLength);
        if (request == null || unanswered(request)) {
            return 0;
        }
        IpmiResponse response = commands.execute(request, null);
        System.arraycopy(in, 0, out, 0, 4);
        out[4] = 0x00;
        Wire.put32(out, 5, 0);
        Wire.put32(out, 9, 0);
        int written = request.encodeResponse(response, out, 14);
        out[13] = (byte) written;
        return 14 + written;
    }

    private int rmcpPlus(byte[] in, int length, byte[] out, Crypto crypto) {
        if (length < BmcSession.RMCP_PLUS_HEADER) {
            return 0;
        }
        int payloadType = in[5] & 0x3f;
        int sessionId = Wire.i32(in, 6);
        int payloadLength = Wire.u16(in, 14);
        if (BmcSession.RMCP_PLUS_HEADER + payloadLength > length) {
            return 0;
        }
        int at = BmcSession.RMCP_PLUS_HEADER;
        return switch (payloadType) {
            case 0x10 -> handshake.openSession(in, at, payloadLength, out);
            case 0x12 -> handshake.rakp1(in, at, payloadLength, out, crypto);
            case 0x14 -> handshake.rakp3(in, at, payloadLength, out, crypto);
            case 0x00 -> sessionId == 0 ? sessionlessPlus(in, payloadLength, out)
                    : inSession(sessionId, in, length, out, crypto);
            default -> 0;
        };
    }

    private int sessionlessPlus(byte[] in, int payloadLength, byte[] out) {
        if ((in[5] & 0xc0) != 0) {
            return 0;
        }
        IpmiRequest request = IpmiRequest.decode(in, BmcSession.RMCP_PLUS_HEADER, payloadLength);
        if (request == null || unanswered(request)) {
            return 0;
        }
        IpmiResponse response = commands.execute(request, null);
        int written = request.encodeResponse(response, out, BmcSession.RMCP_PLUS_HEADER);
        return unsessioned(out, 0x00, written);
    }

    /** Whether a session-less request goes unanswered by the spec's choice; counts cipher-suite queries. */
    private boolean unanswered(IpmiRequest request) {
        boolean suitesQuery = request.netFn() == IpmiRequest.NETFN_APP
                && request.command() == BmcCommands.GET_CHANNEL_CIPHER_SUITES;
        if (suitesQuery) {
            cipherSuitesQueries.incrementAndGet();
        }
        return suitesQuery && spec.silentOnCipherSuitesQuery();
    }

    /** Writes the RMCP+ header of a session-less payload already at {@code out[16]}; returns the datagram length. */
    static int unsessioned(byte[] out, int payloadType, int payloadLength) {
        out[0] = 0x06;
        out[1] = 0x00;
        out[2] = (byte) 0xff;
        out[3] = 0x07;
        out[4] = 0x06;
        out[5] = (byte) payloadType;
        Wire.put32(out, 6, 0);
        Wire.put32(out, 10, 0);
        Wire.put16(out, 14, payloadLength);
        return BmcSession.RMCP_PLUS_HEADER + payloadLength;
    }

    private int inSession(int sessionId, byte[] in, int length, byte[] out, Crypto crypto) {
        BmcSession session = sessions.get(sessionId);
        if (session == null || (session.state != State.ACTIVE && session.state != State.CLOSED)) {
            return 0;
        }
        int messageLength = session.open(in, length, crypto);
        if (messageLength < 0) {
            return 0;
        }
        int sequence = Wire.i32(in, 10);
        ReplayWindow.Verdict verdict = session.accept(sequence);
        if (verdict == ReplayWindow.Verdict.DUPLICATE && sequence == session.lastInboundSequence
                && session.lastDatagramLength > 0) {
            System.arraycopy(session.lastDatagram, 0, out, 0, session.lastDatagramLength);
            return session.lastDatagramLength;
        }
        if (verdict != ReplayWindow.Verdict.NEW || session.state == State.CLOSED) {
            return 0;
        }
        long now = nanoClock.getAsLong();
        session.lastActivityNanos = now;
        IpmiRequest request = IpmiRequest.decode(crypto.plain, 0, messageLength);
        if (request == null) {
            return 0;
        }
        IpmiResponse response = request.sameAs(session.lastRequest) && BmcCommands.changesState(request)
                ? session.lastResponse : commands.execute(request, session);
        int messageOut = request.encodeResponse(response, crypto.plain, 0);
        int written = session.seal(crypto.plain, messageOut, out, crypto, random);
        session.rememberAnswer(sequence, request, response, out, written);
        if (session.closing) {
            close(session, now);
        }
        return written;
    }

    /** Closes an active session: it stops counting as active and lingers briefly as CLOSED. */
    void close(BmcSession session, long now) {
        if (session.state == State.ACTIVE) {
            active.decrementAndGet();
        }
        session.state = State.CLOSED;
        session.closing = false;
        session.lastActivityNanos = now;
    }

    /** Forgets a session at once (handshake failures). */
    void discard(BmcSession session) {
        if (session.state == State.ACTIVE) {
            active.decrementAndGet();
        }
        sessions.remove(session.bmcId);
    }

    /** Called by the handshake when RAKP 4 succeeded. */
    void activated() {
        active.incrementAndGet();
        opened.incrementAndGet();
    }

    /** Drops idle sessions, stale handshakes and lingering closed sessions. */
    void expire() {
        if (sessions.isEmpty()) {
            return;
        }
        long now = nanoClock.getAsLong();
        long idle = spec.idleTimeout().toNanos();
        long handshaking = spec.handshakeTimeout().toNanos();
        for (Iterator<BmcSession> it = sessions.values().iterator(); it.hasNext();) {
            BmcSession session = it.next();
            long quiet = now - session.lastActivityNanos;
            boolean stale = switch (session.state) {
                case ACTIVE -> quiet > idle;
                case OPENED, RAKP2_SENT -> quiet > handshaking;
                case CLOSED -> quiet > CLOSED_LINGER_NANOS;
            };
            if (stale) {
                if (session.state == State.ACTIVE) {
                    active.decrementAndGet();
                }
                it.remove();
            }
        }
    }

    /** Sessions holding a slot: in handshake or active. */
    int slotsInUse() {
        int used = 0;
        for (BmcSession session : sessions.values()) {
            if (session.state != State.CLOSED) {
                used++;
            }
        }
        return used;
    }

    /** A fresh non-zero BMC session id, unused on this BMC. */
    int newSessionId() {
        while (true) {
            int id = random.nextInt();
            if (id != 0 && !sessions.containsKey(id)) {
                return id;
            }
        }
    }

    int activeSessions() {
        return active.get();
    }

    long sessionsOpened() {
        return opened.get();
    }

    /** Makes the next request with this function and command fail with {@code completionCode}, once. */
    void failNext(int netFn, int command, int completionCode) {
        failures.computeIfAbsent(netFn << 8 | command, key -> new ConcurrentLinkedQueue<>()).add(completionCode);
    }

    /** The injected completion code for this request, consumed, or null. */
    Integer injectedFailure(IpmiRequest request) {
        if (failures.isEmpty()) {
            return null;
        }
        Queue<Integer> queue = failures.get(request.netFn() << 8 | request.command());
        return queue == null ? null : queue.poll();
    }

    void recordChassisControl(int code) {
        synchronized (chassisControls) {
            chassisControls.add(code);
        }
    }

    void recordProposal(int[] algorithms) {
        int id = -1;
        for (CipherSuite suite : CipherSuite.values()) {
            if (suite.matches(algorithms[0], algorithms[1], algorithms[2])) {
                id = suite.id;
            }
        }
        synchronized (proposedSuites) {
            proposedSuites.add(id);
        }
    }

    List<Integer> proposedSuites() {
        synchronized (proposedSuites) {
            return List.copyOf(proposedSuites);
        }
    }

    List<Integer> chassisControls() {
        synchronized (chassisControls) {
            return List.copyOf(chassisControls);
        }
    }
}
