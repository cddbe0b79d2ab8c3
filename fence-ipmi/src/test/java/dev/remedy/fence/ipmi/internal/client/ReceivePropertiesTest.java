package dev.remedy.fence.ipmi.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.ipmi.internal.protocol.ChassisStatus;
import dev.remedy.fence.ipmi.internal.protocol.CipherSuite;
import dev.remedy.fence.ipmi.internal.protocol.IpmiMessage;
import dev.remedy.fence.ipmi.internal.protocol.LanplusPacket;
import dev.remedy.fence.ipmi.internal.protocol.Mutation;
import dev.remedy.fence.ipmi.internal.protocol.PayloadType;
import dev.remedy.fence.ipmi.internal.protocol.Privilege;
import dev.remedy.fence.ipmi.internal.protocol.SessionlessPacket;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.BeforeTry;

/**
 * The client's receive path, with a BMC that answers anything: a session-less reply and an Open Session Response
 * of any content during session setup, a response of any content to Get Chassis Status inside a session, some of
 * them mutated. The loop's handlers drop what is malformed and handle the rest: none fails with another exception
 * (the loop logs those as handler failures), and a setup or a command that ends, ends with an
 * {@link IpmiException}.
 */
class ReceivePropertiesTest {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final Logger LOOP_LOG = Logger.getLogger(EventLoop.class.getName());
    private static final List<LogRecord> FAILURES = new CopyOnWriteArrayList<>();
    private static final Handler CAPTURE = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                FAILURES.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private static EventLoop loop;
    private static DatagramSocket bmc;
    private static BmcLogin login;
    private static final AtomicInteger SESSIONS = new AtomicInteger(0x1000);

    @BeforeContainer
    static void start() throws IOException {
        loop = new EventLoop("receive-properties");
        bmc = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        bmc.setSoTimeout(5_000);
        // a long first resend: nothing is sent twice within a try
        login = new BmcLogin((InetSocketAddress) bmc.getLocalSocketAddress(), "admin", Secret.of("secret"),
                Optional.empty(), List.of(CipherSuite.SUITE_3), Privilege.ADMINISTRATOR, true, LONG);
        LOOP_LOG.addHandler(CAPTURE);
    }

    @AfterContainer
    static void stop() {
        LOOP_LOG.removeHandler(CAPTURE);
        loop.close();
        bmc.close();
    }

    @BeforeTry
    void forgetFailures() {
        FAILURES.clear();
    }

    /** What a BMC answers to a request: how to build the reply from the request's numbers, and mutations. */
    record Answer(String what, IpmiMessage message, byte[] openPayload, List<Mutation> mutations) {

        @Override
        public String toString() {
            return what + " " + message + ", open session payload "
                    + (openPayload == null ? "-" : HexFormat.of().formatHex(openPayload)) + ", mutations " + mutations;
        }
    }

    @Property(tries = 200)
    @Label("session setup: session-less replies and Open Session Responses of any content fail no handler")
    void sessionSetup(@ForAll("setupAnswers") Answer answer) throws Exception {
        CompletableFuture<IpmiSession> result = new CompletableFuture<>();
        new Handshake(loop, login, new SuiteMemory(), System.nanoTime() + LONG.toNanos(), result, new AtomicInteger()).start();
        Request capabilities = receive(request -> request.sessionless);
        Request open = receive(request -> request.type == PayloadType.OPEN_SESSION_REQUEST);
        IpmiMessage reply = withSequence(answer.message(), capabilities.message.sequence());
        route(Mutation.applyAll(SessionlessPacket.encode(reply), answer.mutations()));
        byte[] payload = answer.openPayload().clone();
        if (payload.length >= 8) {
            payload[0] = open.payload[0];
            System.arraycopy(open.payload, 4, payload, 4, 4);
        }
        route(Mutation.applyAll(LanplusPacket.encode(PayloadType.OPEN_SESSION_RESPONSE, 0, 0, payload, null, null),
                answer.mutations()));
        onLoop(() -> null);
        assertThat(FAILURES).as("handler failures").extracting(ReceivePropertiesTest::describe).isEmpty();
        if (result.isCompletedExceptionally()) {
            assertThat(result.handle((session, error) -> error).get()).isInstanceOf(IpmiException.class);
        }
        result.cancel(false);
        onLoop(() -> null);
    }

    @Property(tries = 200)
    @Label("inside a session: responses of any content to Get Chassis Status fail no handler, and end the command"
            + " with a status or an IpmiException")
    void chassisStatus(@ForAll("sessionAnswers") Answer answer) throws Exception {
        int bmcSession = SESSIONS.incrementAndGet();
        int console = onLoop(() -> loop.register((datagram, length, from) -> { }));
        IpmiSession session = new IpmiSession(loop, login, CipherSuite.SUITE_0, console, bmcSession, null,
                new AtomicInteger());
        onLoop(() -> {
            loop.reroute(console, session::receive);
            return null;
        });
        CompletableFuture<ChassisStatus> status = session.chassisStatus(LONG);
        Request request = receive(r -> r.type == PayloadType.IPMI_MESSAGE && r.sessionId == bmcSession);
        IpmiMessage reply = withSequence(answer.message(), request.message.sequence());
        route(Mutation.applyAll(LanplusPacket.encode(PayloadType.IPMI_MESSAGE, console, 1, reply.encode(), null,
                null), answer.mutations()));
        onLoop(() -> null);
        assertThat(FAILURES).as("handler failures").extracting(ReceivePropertiesTest::describe).isEmpty();
        if (status.isDone()) {
            Throwable error = status.handle((value, thrown) -> thrown).get();
            if (error != null) {
                assertThat(error).hasCauseInstanceOf(IpmiException.class);
            }
        }
        session.close();
    }

    @Provide
    Arbitrary<Answer> setupAnswers() {
        Arbitrary<IpmiMessage> capabilities = Arbitraries.oneOf(anyMessage(),
                data().map(data -> new IpmiMessage(0x81, 0x07, 0, 0x20, 0, 0, 0x38, data)));
        Arbitrary<byte[]> openPayload = Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
        return Combinators.combine(capabilities, openPayload, mutationsOrNone())
                .as((message, payload, mutations) -> new Answer("setup", message, payload, mutations));
    }

    @Provide
    Arbitrary<Answer> sessionAnswers() {
        Arbitrary<IpmiMessage> status = Arbitraries.oneOf(anyMessage(),
                data().map(data -> new IpmiMessage(0x81, 0x01, 0, 0x20, 0, 0, 0x01, data)));
        return Combinators.combine(status, mutationsOrNone())
                .as((message, mutations) -> new Answer("session", message, null, mutations));
    }

    private static Arbitrary<List<Mutation>> mutationsOrNone() {
        return Arbitraries.oneOf(Arbitraries.just(List.of()), Mutation.some());
    }

    /** Response data: a completion code (mostly 0) and up to 12 bytes. */
    private static Arbitrary<byte[]> data() {
        return Combinators.combine(Arbitraries.of(0, 0, 0, 0xC0, 0xD4, 0xFF),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(12))
                .as((code, rest) -> {
                    byte[] out = new byte[rest.length + 1];
                    out[0] = (byte) (int) code;
                    System.arraycopy(rest, 0, out, 1, rest.length);
                    return out;
                });
    }

    private static Arbitrary<IpmiMessage> anyMessage() {
        Arbitrary<List<Integer>> fields = Combinators.combine(List.of(Arbitraries.integers().between(0, 0xFF),
                Arbitraries.integers().between(0, 0x3F), Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 0xFF), Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 0xFF))).as(List::copyOf);
        return Combinators.combine(fields, Arbitraries.bytes().array(byte[].class).ofMaxSize(12))
                .as((f, data) -> new IpmiMessage(f.get(0), f.get(1), f.get(2), f.get(3), 0, f.get(4), f.get(5),
                        data));
    }

    // ---- the BMC's side

    /** A request the client sent, as the BMC reads it. */
    private record Request(boolean sessionless, PayloadType type, int sessionId, IpmiMessage message,
            byte[] payload) {
    }

    /** The next request the client sends that {@code wanted} accepts (others are skipped, at most 20). */
    private static Request receive(Predicate<Request> wanted) throws IOException {
        List<String> skipped = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            DatagramPacket packet = new DatagramPacket(new byte[1024], 1024);
            bmc.receive(packet);
            byte[] bytes = Arrays.copyOf(packet.getData(), packet.getLength());
            Request request;
            if (SessionlessPacket.matches(bytes, bytes.length)) {
                request = new Request(true, null, 0, SessionlessPacket.decode(bytes, bytes.length), bytes);
            } else {
                LanplusPacket lanplus = LanplusPacket.decode(bytes, bytes.length, null, null);
                PayloadType type = lanplus.header().payloadType();
                request = new Request(false, type, lanplus.header().sessionId(),
                        type == PayloadType.IPMI_MESSAGE ? lanplus.ipmiMessage() : null, lanplus.payload());
            }
            if (wanted.test(request)) {
                return request;
            }
            skipped.add(request.toString());
        }
        throw new AssertionError("the client did not send the request expected; it sent " + skipped);
    }

    private static void route(byte[] datagram) throws Exception {
        InetSocketAddress from = (InetSocketAddress) bmc.getLocalSocketAddress();
        onLoop(() -> {
            loop.route(datagram, datagram.length, from);
            return null;
        });
    }

    private static <T> T onLoop(Supplier<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        loop.execute(() -> result.complete(work.get()));
        return result.get(5, TimeUnit.SECONDS);
    }

    private static String describe(LogRecord record) {
        return record.getMessage() + (record.getThrown() == null ? "" : ": " + record.getThrown());
    }

    private static IpmiMessage withSequence(IpmiMessage message, int sequence) {
        return new IpmiMessage(message.targetAddress(), message.netFn(), message.targetLun(),
                message.sourceAddress(), sequence, message.sourceLun(), message.command(), message.data());
    }
}
