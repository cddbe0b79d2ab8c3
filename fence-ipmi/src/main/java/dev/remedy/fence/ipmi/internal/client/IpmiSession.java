package dev.remedy.fence.ipmi.internal.client;

import dev.remedy.fence.ipmi.internal.client.IpmiException.Kind;
import dev.remedy.fence.ipmi.internal.protocol.ChassisControl;
import dev.remedy.fence.ipmi.internal.protocol.ChassisStatus;
import dev.remedy.fence.ipmi.internal.protocol.CipherSuite;
import dev.remedy.fence.ipmi.internal.protocol.Command;
import dev.remedy.fence.ipmi.internal.protocol.CompletionCode;
import dev.remedy.fence.ipmi.internal.protocol.Confidentiality;
import dev.remedy.fence.ipmi.internal.protocol.Integrity;
import dev.remedy.fence.ipmi.internal.protocol.IpmiMessage;
import dev.remedy.fence.ipmi.internal.protocol.LanplusPacket;
import dev.remedy.fence.ipmi.internal.protocol.MalformedPacketException;
import dev.remedy.fence.ipmi.internal.protocol.PayloadType;
import dev.remedy.fence.ipmi.internal.protocol.Privilege;
import dev.remedy.fence.ipmi.internal.protocol.SequenceWindow;
import dev.remedy.fence.ipmi.internal.protocol.SessionKeys;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * An open RMCP+ session with one BMC. Commands are sent one at a time in the order they are given, each resent
 * until answered or its timeout passes; a command that needs more privilege than the session has (Chassis
 * Control needs operator) is preceded by Set Session Privilege Level. Thread-safe: every method hands its work
 * to the session's I/O thread and answers with a future, completed on that thread (keep continuations short
 * and non-blocking). {@link #close()} always sends Close Session, since BMCs have few session slots.
 */
public final class IpmiSession {

    /** How long Close Session is resent before the session is dropped anyway. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

    private final EventLoop loop;
    private final BmcLogin login;
    private final CipherSuite suite;
    private final int consoleSessionId;
    private final int bmcSessionId;
    private final SessionKeys keys;
    private final Integrity integrity;
    private final Confidentiality confidentiality;
    private final AtomicInteger packets;
    private final SequenceWindow window = new SequenceWindow();
    private final ArrayDeque<Call> queue = new ArrayDeque<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private Call inFlight;
    private Privilege active = Privilege.USER;
    private int outboundSequence;
    private int requestSequence;
    private volatile boolean closing;

    IpmiSession(EventLoop loop, BmcLogin login, CipherSuite suite, int consoleSessionId, int bmcSessionId,
            SessionKeys keys, AtomicInteger packets) {
        this.loop = loop;
        this.login = login;
        this.suite = suite;
        this.consoleSessionId = consoleSessionId;
        this.bmcSessionId = bmcSessionId;
        this.keys = keys;
        this.integrity = keys == null ? null : keys.integrity();
        this.confidentiality = keys == null ? null : keys.confidentiality(loop.random());
        this.packets = packets;
    }

    /** The cipher suite the BMC accepted. */
    public CipherSuite suite() {
        return suite;
    }

    /** The BMC's address as {@code host:port}. */
    public String bmc() {
        return login.bmc();
    }

    /** Whether {@link #close()} has not been called. */
    public boolean isOpen() {
        return !closing;
    }

    /**
     * Sends {@code command} and answers its response data after the completion code. A non-zero completion code
     * fails the future with an {@link IpmiException} of the matching kind.
     */
    public CompletableFuture<byte[]> send(Command command, byte[] data, Duration timeout) {
        CompletableFuture<byte[]> future = new CompletableFuture<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[] copy = data.clone();
        loop.execute(() -> enqueue(new Call(command, copy, deadline, (response, error) -> {
            if (error != null) {
                future.completeExceptionally(error);
            } else {
                future.complete(response);
            }
        })));
        return future;
    }

    /**
     * Reads the chassis power state with Get Chassis Status; an answer without the power state byte fails the future
     * with an {@link IpmiException} of kind {@link Kind#PROTOCOL}.
     */
    public CompletableFuture<ChassisStatus> chassisStatus(Duration timeout) {
        return send(Command.GET_CHASSIS_STATUS, new byte[0], timeout).thenApply(data -> {
            try {
                return ChassisStatus.decode(data);
            } catch (MalformedPacketException e) {
                throw new IpmiException(Kind.PROTOCOL, bmc(), "answered " + Command.GET_CHASSIS_STATUS.title()
                        + " with a malformed response: " + e.getMessage(), e);
            }
        });
    }

    /** Sends Chassis Control with {@code control}; the future completes when the BMC accepted it. */
    public CompletableFuture<Void> chassisControl(ChassisControl control, Duration timeout) {
        return send(Command.CHASSIS_CONTROL, control.data(), timeout).thenApply(response -> null);
    }

    /** Reads Get Device ID (the BMC's device id, firmware and IPMI version bytes). */
    public CompletableFuture<byte[]> deviceId(Duration timeout) {
        return send(Command.GET_DEVICE_ID, new byte[0], timeout);
    }

    /**
     * Sends Close Session (resent for at most {@link #CLOSE_TIMEOUT}) and forgets the keys. Commands still
     * queued fail with {@link Kind#CANCELLED}. The future completes normally when the BMC answered or the time
     * ran out. Idempotent.
     */
    public CompletableFuture<Void> close() {
        if (!closing) {
            closing = true;
            loop.execute(this::startClose);
        }
        return closed;
    }

    private void enqueue(Call call) {
        if (closing && call.command != Command.CLOSE_SESSION) {
            call.fail(new IpmiException(Kind.CANCELLED, bmc(), call.command.title() + " after the session was closed"));
            return;
        }
        queue.add(call);
        pump();
    }

    private void pump() {
        if (inFlight != null || queue.isEmpty()) {
            return;
        }
        Call next = queue.peek();
        Privilege needed = next.command.privilege();
        if (!active.includes(needed) && login.privilege().includes(needed)) {
            Privilege wanted = login.privilege();
            start(new Call(Command.SET_SESSION_PRIVILEGE_LEVEL, new byte[] {(byte) wanted.code()}, next.deadline,
                    (response, error) -> {
                        if (error == null) {
                            active = wanted;
                        } else {
                            queue.remove(next);
                            next.fail(error);
                        }
                    }));
            return;
        }
        start(queue.poll());
    }

    private void start(Call call) {
        inFlight = call;
        call.sequence = requestSequence = requestSequence % 63 + 1;
        call.retransmission = new Retransmission(loop, login.address(), () -> encode(call), call.deadline,
                login.retransmitInterval(), () -> expired(call)).start();
    }

    private byte[] encode(Call call) {
        packets.incrementAndGet();
        outboundSequence = outboundSequence == -1 ? 1 : outboundSequence + 1;
        byte[] message = call.command.request(call.sequence, call.data).encode();
        return LanplusPacket.encode(PayloadType.IPMI_MESSAGE, bmcSessionId, outboundSequence, message,
                confidentiality, integrity);
    }

    /** Handles a datagram routed to this session's console id (loop thread). */
    void receive(byte[] datagram, int length, InetSocketAddress from) {
        if (!from.equals(login.address())) {
            return;
        }
        LanplusPacket packet = LanplusPacket.decode(datagram, length, confidentiality, integrity);
        if (packet.header().sessionId() != consoleSessionId || packet.header().payloadType() != PayloadType.IPMI_MESSAGE
                || !window.accept(packet.header().sequenceNumber())) {
            return;
        }
        IpmiMessage message = packet.ipmiMessage();
        Call call = inFlight;
        if (call == null || !call.command.answeredBy(message, call.sequence)) {
            return;
        }
        call.retransmission.stop();
        inFlight = null;
        byte[] data = message.data();
        int code = data.length == 0 ? -1 : data[0] & 0xFF;
        if (code == CompletionCode.OK) {
            call.succeed(Arrays.copyOfRange(data, 1, data.length));
        } else {
            call.fail(failure(call.command, code));
        }
        pump();
    }

    private void expired(Call call) {
        inFlight = null;
        call.fail(new IpmiException(Kind.TIMEOUT, bmc(), "no answer to " + call.command.title() + " after "
                + call.retransmission.sent() + " tries; the BMC may have dropped the session or be unreachable"));
        pump();
    }

    private IpmiException failure(Command command, int code) {
        String what = "answered " + command.title() + " with " + (code < 0 ? "no completion code"
                : CompletionCode.describe(code));
        if (CompletionCode.isPrivilege(code)) {
            return new IpmiException(Kind.PRIVILEGE, bmc(), what + ": user '" + login.user() + "' at "
                    + login.privilege() + " may not do this; use an operator or administrator user and privlvl");
        }
        if (CompletionCode.isUnsupported(code)) {
            return new IpmiException(Kind.UNSUPPORTED, bmc(), what);
        }
        if (CompletionCode.isTransient(code)) {
            return new IpmiException(Kind.BUSY, bmc(), what + "; retry later");
        }
        return new IpmiException(Kind.PROTOCOL, bmc(), what);
    }

    private void startClose() {
        IpmiException cancelled = new IpmiException(Kind.CANCELLED, bmc(), "session closed before the answer");
        if (inFlight != null) {
            inFlight.retransmission.stop();
            inFlight.fail(cancelled);
            inFlight = null;
        }
        Call call;
        while ((call = queue.poll()) != null) {
            call.fail(cancelled);
        }
        byte[] id = {(byte) bmcSessionId, (byte) (bmcSessionId >>> 8), (byte) (bmcSessionId >>> 16),
                (byte) (bmcSessionId >>> 24)};
        start(new Call(Command.CLOSE_SESSION, id, System.nanoTime() + CLOSE_TIMEOUT.toNanos(),
                (response, error) -> finishClose()));
    }

    private void finishClose() {
        loop.unregister(consoleSessionId);
        if (keys != null) {
            keys.destroy();
        }
        closed.complete(null);
    }

    @Override
    public String toString() {
        return "IpmiSession[" + bmc() + ", suite " + suite.id() + (closing ? ", closed]" : "]");
    }

    /** One command waiting for its answer. */
    private static final class Call {
        private final Command command;
        private final byte[] data;
        private final long deadline;
        private final BiConsumer<byte[], IpmiException> handler;
        private int sequence;
        private Retransmission retransmission;

        Call(Command command, byte[] data, long deadline, BiConsumer<byte[], IpmiException> handler) {
            this.command = command;
            this.data = data;
            this.deadline = deadline;
            this.handler = handler;
        }

        void succeed(byte[] response) {
            handler.accept(response, null);
        }

        void fail(IpmiException error) {
            handler.accept(null, error);
        }
    }
}
