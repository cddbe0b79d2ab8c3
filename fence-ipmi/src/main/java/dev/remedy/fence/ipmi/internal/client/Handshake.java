package dev.remedy.fence.ipmi.internal.client;

import dev.remedy.fence.ipmi.internal.client.IpmiException.Kind;
import dev.remedy.fence.ipmi.internal.protocol.ChannelAuthCapabilities;
import dev.remedy.fence.ipmi.internal.protocol.ChannelCipherSuites;
import dev.remedy.fence.ipmi.internal.protocol.CipherSuite;
import dev.remedy.fence.ipmi.internal.protocol.Command;
import dev.remedy.fence.ipmi.internal.protocol.CompletionCode;
import dev.remedy.fence.ipmi.internal.protocol.IpmiMessage;
import dev.remedy.fence.ipmi.internal.protocol.LanplusPacket;
import dev.remedy.fence.ipmi.internal.protocol.MalformedPacketException;
import dev.remedy.fence.ipmi.internal.protocol.OpenSession;
import dev.remedy.fence.ipmi.internal.protocol.PayloadType;
import dev.remedy.fence.ipmi.internal.protocol.Rakp;
import dev.remedy.fence.ipmi.internal.protocol.RakpExchange;
import dev.remedy.fence.ipmi.internal.protocol.RmcpPlusStatus;
import dev.remedy.fence.ipmi.internal.protocol.SessionKeys;
import dev.remedy.fence.ipmi.internal.protocol.SessionlessPacket;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Opens one RMCP+ session: Get Channel Authentication Capabilities and, at the same time (one round trip less),
 * with several suites allowed Get Channel Cipher Suites (proposing only those the BMC lists; a BMC that does not
 * answer within {@link #SUITES_WAIT} gets every one) unless the {@link SuiteMemory} knows the suite this BMC
 * accepted last (then proposed alone, and forgotten if refused: a refusal for its algorithms asks the suites), then
 * Open Session (cipher suites in the order of the login, moving on when the BMC refuses a suite's algorithms; a
 * reply with other algorithms than proposed is accepted if they form a suite of the login, refused otherwise);
 * once both are answered and acceptable, RAKP 1 to 4 with both proofs checked,
 * then hands the keys to a new {@link IpmiSession}. Every step is resent until answered or the deadline passes.
 * A failure after the BMC allotted a session tells it to drop the session with an error RAKP 3, since BMCs have
 * few session slots. Loop thread only, except {@link #start()}'s caller.
 */
final class Handshake implements Receiver {

    private enum Stage { CAPABILITIES, SUITES, OPEN, RAKP1, RAKP3, DONE }

    /**
     * How long Get Channel Cipher Suites may go unanswered (some BMCs ignore it) before proposing every suite; at
     * most half the time left for the setup.
     */
    static final Duration SUITES_WAIT = Duration.ofSeconds(1);

    private final EventLoop loop;
    private final BmcLogin login;
    private final SuiteMemory memory;
    private final long startedAt;
    private final long deadline;
    private final CompletableFuture<IpmiSession> result;
    private final AtomicInteger packets;
    private Stage stage = Stage.CAPABILITIES;
    private Retransmission pending;
    private Retransmission capabilities;
    private Retransmission suitesQuery;
    private int suitesSequence;
    private final ByteArrayOutputStream suiteRecords = new ByteArrayOutputStream();
    private List<CipherSuite> proposals;
    private CipherSuite suite;
    /** The suite proposed alone because this BMC accepted it last, until the BMC refuses it; else null. */
    private CipherSuite recalled;
    private boolean capable;
    private boolean openAccepted;
    private int consoleSessionId;
    private int capabilitiesSequence;
    private int bmcSessionId;
    private int proposalIndex;
    private int tag;
    private byte[] consoleRandom;
    private RakpExchange exchange;
    private SessionKeys keys;

    Handshake(EventLoop loop, BmcLogin login, SuiteMemory memory, long deadline,
            CompletableFuture<IpmiSession> result, AtomicInteger packets) {
        this.loop = loop;
        this.login = login;
        this.memory = memory;
        this.startedAt = System.nanoTime();
        this.deadline = deadline;
        this.result = result;
        this.packets = packets;
        this.proposals = login.suites();
    }

    /** Starts the exchange on the loop; cancelling the result abandons it. */
    void start() {
        result.whenComplete((session, error) -> {
            if (error instanceof CancellationException) {
                loop.execute(this::abandon);
            }
        });
        loop.execute(this::askCapabilities);
    }

    private CipherSuite suite() {
        return suite;
    }

    private void askCapabilities() {
        if (result.isDone()) {
            return;
        }
        consoleSessionId = loop.register(this);
        InetSocketAddress address = login.address();
        loop.settingUp(address, consoleSessionId);
        tag = loop.random().nextInt(256);
        capabilitiesSequence = loop.expectSessionless(address, this::onCapabilities);
        byte[] datagram = SessionlessPacket.encode(Command.GET_CHANNEL_AUTH_CAPABILITIES.request(
                capabilitiesSequence, ChannelAuthCapabilities.requestData(login.privilege())));
        capabilities = send(() -> datagram, "Get Channel Authentication Capabilities");
        recalled = login.suites().size() > 1 ? memory.recall(login).orElse(null) : null;
        if (recalled != null) {
            proposals = List.of(recalled);
            openSession();
        } else if (login.suites().size() > 1) {
            askSuites(0);
        } else {
            openSession();
        }
    }

    /** Asks page {@code page} of the BMC's cipher suites; no answer within {@link #SUITES_WAIT} proposes all. */
    private void askSuites(int page) {
        stage = Stage.SUITES;
        suitesSequence = loop.expectSessionless(login.address(), message -> onSuites(message, page));
        byte[] datagram = SessionlessPacket.encode(Command.GET_CHANNEL_CIPHER_SUITES.request(suitesSequence,
                ChannelCipherSuites.requestData(page)));
        long now = System.nanoTime();
        long wait = now + Math.min(SUITES_WAIT.toNanos(), (deadline - now) / 2);
        suitesQuery = new Retransmission(loop, login.address(), () -> {
            packets.incrementAndGet();
            return datagram;
        }, wait, login.retransmitInterval(), this::proposeAll).start();
    }

    private void onSuites(IpmiMessage message, int page) {
        if (stage != Stage.SUITES) {
            return;
        }
        suitesQuery.stop();
        boolean answered = Command.GET_CHANNEL_CIPHER_SUITES.answeredBy(message, suitesSequence);
        suitesSequence = 0;
        byte[] data = message.data();
        if (!answered || data.length == 0 || (data[0] & 0xFF) != CompletionCode.OK) {
            proposeAll();
            return;
        }
        byte[] records;
        try {
            records = ChannelCipherSuites.records(tail(data));
        } catch (MalformedPacketException e) {
            proposeAll();
            return;
        }
        suiteRecords.writeBytes(records);
        if (records.length == ChannelCipherSuites.PAGE && page + 1 < ChannelCipherSuites.MAX_PAGES) {
            askSuites(page + 1);
            return;
        }
        List<Integer> offered = ChannelCipherSuites.suiteIds(suiteRecords.toByteArray());
        List<CipherSuite> both = login.suites().stream().filter(candidate -> offered.contains(candidate.id()))
                .toList();
        if (offered.isEmpty()) {
            proposeAll();
        } else if (both.isEmpty()) {
            fail(Kind.UNSUPPORTED, "offers cipher suites " + offered + " (Get Channel Cipher Suites), none of "
                    + allowedSuites() + " this agent speaks: enable suite 17 or 3 on the BMC");
        } else {
            proposals = both;
            openSession();
        }
    }

    /** Proposes every allowed suite in turn: for a BMC that does not list its suites. */
    private void proposeAll() {
        if (stage != Stage.SUITES) {
            return;
        }
        forgetSuitesQuery();
        proposals = login.suites();
        openSession();
    }

    private void forgetSuitesQuery() {
        if (suitesSequence != 0) {
            loop.forgetSessionless(login.address(), suitesSequence);
            suitesSequence = 0;
        }
    }

    private void onCapabilities(IpmiMessage message) {
        if (capable || stage == Stage.DONE) {
            return;
        }
        capabilities.stop();
        // The loop routes one reply per request sequence: a reply that cannot be read ends the setup, never hangs it.
        if (!Command.GET_CHANNEL_AUTH_CAPABILITIES.answeredBy(message, capabilitiesSequence)) {
            fail(Kind.PROTOCOL, "answered Get Channel Authentication Capabilities with another message, " + message
                    + ": check that ip and ipport name the BMC's IPMI over LAN interface");
            return;
        }
        byte[] data = message.data();
        int code = data.length == 0 ? -1 : data[0] & 0xFF;
        if (code != CompletionCode.OK) {
            fail(Kind.UNSUPPORTED, "answered Get Channel Authentication Capabilities with "
                    + (code < 0 ? "no data" : CompletionCode.describe(code))
                    + ": it may not support IPMI v2.0; enable lanplus (IPMI over LAN v2.0) on the BMC");
            return;
        }
        ChannelAuthCapabilities capabilities;
        try {
            capabilities = ChannelAuthCapabilities.decode(tail(data));
        } catch (MalformedPacketException e) {
            fail(Kind.PROTOCOL, "answered Get Channel Authentication Capabilities with a malformed response ("
                    + e.getMessage() + "): it may not support IPMI v2.0; enable lanplus on the BMC");
            return;
        }
        if (!capabilities.ipmi20()) {
            fail(Kind.UNSUPPORTED, "does not offer IPMI v2.0 (RMCP+) sessions on channel " + capabilities.channel()
                    + ": enable lanplus on the BMC");
        } else if (capabilities.kgSet() && login.bmcKey().isEmpty()) {
            fail(Kind.AUTHENTICATION, "requires a BMC key (Kg) for sessions: set hexadecimal_kg");
        } else {
            capable = true;
            if (openAccepted) {
                sendRakp1();
            }
        }
    }

    private void openSession() {
        stage = Stage.OPEN;
        suite = proposals.get(proposalIndex);
        byte[] payload = new OpenSession.Request(++tag & 0xFF, login.privilege().code(), consoleSessionId, suite())
                .encode();
        pending = send(() -> LanplusPacket.encode(PayloadType.OPEN_SESSION_REQUEST, 0, 0, payload, null, null),
                "Open Session (cipher suite " + suite().id() + ")");
    }

    @Override
    public void receive(byte[] datagram, int length, InetSocketAddress from) {
        if (!from.equals(login.address())) {
            return;
        }
        LanplusPacket packet = LanplusPacket.decode(datagram, length, null, null);
        byte[] payload = packet.payload();
        switch (packet.header().payloadType()) {
            case OPEN_SESSION_RESPONSE -> {
                if (stage == Stage.OPEN) {
                    onOpened(OpenSession.Response.decode(payload));
                }
            }
            case RAKP_2 -> {
                if (stage == Stage.RAKP1) {
                    onRakp2(Rakp.Message2.decode(payload, suite().authentication().macLength()));
                }
            }
            case RAKP_4 -> {
                if (stage == Stage.RAKP3) {
                    onRakp4(Rakp.Message4.decode(payload, suite().authentication().icvLength()));
                }
            }
            default -> { }
        }
    }

    private void onOpened(OpenSession.Response response) {
        if (openAccepted || !mine(response.tag(), response.consoleSessionId())) {
            return;
        }
        pending.stop();
        int status = response.status();
        if (RmcpPlusStatus.isCipherMismatch(status) && recalled != null) {
            // The BMC no longer accepts the suite it accepted last time: ask which suites it offers now.
            memory.forget(login, recalled);
            recalled = null;
            proposalIndex = 0;
            askSuites(0);
        } else if (RmcpPlusStatus.isCipherMismatch(status) && proposalIndex + 1 < proposals.size()) {
            proposalIndex++;
            openSession();
        } else if (status != RmcpPlusStatus.OK) {
            failStatus("Open Session (cipher suite " + suite().id() + ")", status);
        } else if (response.bmcSessionId() == 0) {
            fail(Kind.PROTOCOL, "answered Open Session for cipher suite " + suite().id() + " with no session id");
        } else {
            bmcSessionId = response.bmcSessionId();
            Optional<CipherSuite> chosen = response.suite().filter(login.suites()::contains);
            if (chosen.isEmpty()) {
                refuseAlgorithms(response);
                return;
            }
            // Some BMCs answer with the algorithms of another suite than proposed: the session runs with theirs.
            suite = chosen.get();
            openAccepted = true;
            if (capable) {
                sendRakp1();
            }
        }
    }

    /** Fails on an Open Session reply whose algorithms are not a suite the login allows, freeing the BMC's slot. */
    private void refuseAlgorithms(OpenSession.Response response) {
        String offered = response.describeAlgorithms();
        Optional<CipherSuite> theirs = response.suite().filter(suite -> !suite.insecure());
        List<Integer> allowed = login.suites().stream().map(CipherSuite::id).sorted(Comparator.reverseOrder())
                .toList();
        dropHalfOpenSession();
        fail(Kind.UNSUPPORTED, "answered Open Session for cipher suite " + suite().id() + " with " + offered
                + (theirs.map(suite -> " (cipher suite " + suite.id() + ")").orElse(""))
                + ", which is not a suite allowed here (" + allowedSuites() + "): "
                + theirs.map(suite -> "set cipher=" + suite.id() + " to accept it, or enable suite "
                        + allowed.get(0) + " on the BMC")
                        .orElse("enable suite 17 or 3 on the BMC"));
    }

    /** The suites the login allows, strongest first, e.g. "17 or 3". */
    private String allowedSuites() {
        return login.suites().stream().map(CipherSuite::id).sorted(Comparator.reverseOrder()).map(String::valueOf)
                .collect(Collectors.joining(" or "));
    }

    /** Whether a setup reply answers this handshake's last message (error replies may carry no session id). */
    private boolean mine(int replyTag, int replyConsoleSessionId) {
        return replyTag == (tag & 0xFF) && (replyConsoleSessionId == consoleSessionId || replyConsoleSessionId == 0);
    }

    private void sendRakp1() {
        stage = Stage.RAKP1;
        consoleRandom = new byte[RakpExchange.RANDOM_LENGTH];
        loop.random().nextBytes(consoleRandom);
        int role = login.privilege().code() | (login.nameOnlyLookup() ? RakpExchange.NAME_ONLY_LOOKUP : 0);
        byte[] payload = new Rakp.Message1(++tag & 0xFF, bmcSessionId, consoleRandom, role, login.user()).encode();
        pending = send(() -> LanplusPacket.encode(PayloadType.RAKP_1, 0, 0, payload, null, null), "RAKP 1");
    }

    private void onRakp2(Rakp.Message2 message) {
        if (!mine(message.tag(), message.consoleSessionId())) {
            return;
        }
        pending.stop();
        if (message.status() != RmcpPlusStatus.OK) {
            failStatus("RAKP 1", message.status());
            return;
        }
        int role = login.privilege().code() | (login.nameOnlyLookup() ? RakpExchange.NAME_ONLY_LOOKUP : 0);
        exchange = new RakpExchange(consoleSessionId, bmcSessionId, consoleRandom, message.bmcRandom(),
                message.bmcGuid(), role, login.user());
        if (!suite().insecure()
                && !SessionKeys.verifyRakp2AuthCode(suite(), login.password(), exchange, message.authCode())) {
            dropHalfOpenSession();
            fail(Kind.AUTHENTICATION, "rejected the login of user '" + login.user()
                    + "': the BMC's RAKP 2 proof does not match the configured password; check username and password");
            return;
        }
        stage = Stage.RAKP3;
        byte[] code = suite().insecure() ? new byte[0]
                : SessionKeys.rakp3AuthCode(suite(), login.password(), exchange);
        byte[] payload = new Rakp.Message3(++tag & 0xFF, RmcpPlusStatus.OK, bmcSessionId, code).encode();
        pending = send(() -> LanplusPacket.encode(PayloadType.RAKP_3, 0, 0, payload, null, null), "RAKP 3");
    }

    private void onRakp4(Rakp.Message4 message) {
        if (!mine(message.tag(), message.consoleSessionId())) {
            return;
        }
        pending.stop();
        if (message.status() != RmcpPlusStatus.OK) {
            failStatus("RAKP 3", message.status());
            return;
        }
        if (!suite().insecure()) {
            byte[] bmcKey = login.bmcKeyBytes();
            try {
                keys = SessionKeys.derive(suite(), login.password(), bmcKey, exchange);
            } finally {
                if (bmcKey != null) {
                    Arrays.fill(bmcKey, (byte) 0);
                }
            }
            if (!keys.verifyRakp4IntegrityCheckValue(exchange, message.integrityCheckValue())) {
                fail(Kind.AUTHENTICATION, "sent a RAKP 4 check value that does not match the derived session key: "
                        + (login.bmcKey().isPresent() ? "check hexadecimal_kg (the BMC key)"
                                : "the BMC may need a BMC key (hexadecimal_kg)"));
                return;
            }
        }
        stopResending();
        stage = Stage.DONE;
        if (login.suites().size() > 1) {
            memory.remember(login, suite());
        }
        loop.setUp(login.address(), consoleSessionId);
        IpmiSession session = new IpmiSession(loop, login, suite(), consoleSessionId, bmcSessionId, keys, packets);
        loop.reroute(consoleSessionId, session::receive);
        if (!result.complete(session)) {
            session.close();
        }
    }

    /** Sends a setup message, resent until answered; the deadline passing fails the handshake. */
    private Retransmission send(Supplier<byte[]> datagram, String step) {
        Retransmission[] self = new Retransmission[1];
        self[0] = new Retransmission(loop, login.address(), () -> {
            packets.incrementAndGet();
            return datagram.get();
        }, deadline, login.retransmitInterval(), () -> fail(Kind.TIMEOUT, unanswered(step, self[0])));
        return self[0].start();
    }

    /** Why the setup timed out: a BMC that answers nothing is named by its first unanswered message. */
    private String unanswered(String step, Retransmission expired) {
        if (!capable && capabilities != null && expired != capabilities) {
            return silence("Get Channel Authentication Capabilities", capabilities.sent());
        }
        return silence(step, expired.sent());
    }

    /**
     * Why {@code step} got no answer. A BMC that answered the first messages is reachable: silence at RAKP 1 is
     * how some BMCs treat a user name they do not know, silence after RAKP 3 how many treat a key exchange code
     * that does not match (a wrong password) or a privilege level the user lacks.
     */
    private String silence(String step, int tries) {
        String unanswered = "no answer to " + step + " within " + elapsed().toMillis() + " ms after " + tries
                + " tries";
        if (stage == Stage.RAKP1) {
            return "answered Get Channel Authentication Capabilities and Open Session, then went silent at RAKP 1 ("
                    + unanswered + "): some BMCs ignore RAKP 1 for a user name they do not know; check username ('"
                    + login.user() + "') and that the user is enabled for IPMI over LAN";
        }
        if (stage == Stage.RAKP3) {
            return "answered Get Channel Authentication Capabilities, Open Session and RAKP 1, then went silent after"
                    + " RAKP 3 (" + unanswered + "): on many BMCs this means the key exchange code check failed, a"
                    + " wrong password for user '" + login.user() + "', or that the user may not log in at privlvl "
                    + login.privilege().name().toLowerCase(Locale.ROOT) + "; check password and privlvl";
        }
        return unanswered + ": check ip and ipport, that IPMI over LAN is enabled on the BMC and that UDP reaches it";
    }

    private void failStatus(String step, int status) {
        String what = "answered " + step + " with " + RmcpPlusStatus.describe(status);
        switch (status) {
            case RmcpPlusStatus.UNAUTHORIZED_NAME -> fail(Kind.AUTHENTICATION, what + ": user '" + login.user()
                    + "' is unknown or not enabled for IPMI over LAN");
            case RmcpPlusStatus.INVALID_INTEGRITY_CHECK_VALUE -> fail(Kind.AUTHENTICATION, what
                    + ": the password of user '" + login.user() + "' is wrong");
            case RmcpPlusStatus.INVALID_ROLE, RmcpPlusStatus.UNAUTHORIZED_ROLE -> fail(Kind.PRIVILEGE, what
                    + ": user '" + login.user() + "' may not log in at " + login.privilege()
                    + "; lower privlvl or raise the user's privilege on the BMC");
            case RmcpPlusStatus.NO_RESOURCES, RmcpPlusStatus.NO_RESOURCES_FOR_ROLE -> fail(Kind.BUSY, what
                    + ": all session slots are in use; retry later or close stale sessions on the BMC");
            default -> fail(RmcpPlusStatus.isCipherMismatch(status) ? Kind.UNSUPPORTED : Kind.PROTOCOL, what
                    + (RmcpPlusStatus.isCipherMismatch(status) ? ": set cipher to a suite the BMC supports (3 or 17)"
                            : ""));
        }
    }

    /** Tells the BMC to free the slot of a session that will not be completed. */
    private void dropHalfOpenSession() {
        if (bmcSessionId != 0 && (stage == Stage.OPEN || stage == Stage.RAKP1)) {
            byte[] payload = new Rakp.Message3(++tag & 0xFF, RmcpPlusStatus.INVALID_INTEGRITY_CHECK_VALUE,
                    bmcSessionId, new byte[0]).encode();
            packets.incrementAndGet();
            loop.send(login.address(), LanplusPacket.encode(PayloadType.RAKP_3, 0, 0, payload, null, null));
        }
    }

    private void abandon() {
        if (stage == Stage.DONE) {
            return;
        }
        dropHalfOpenSession();
        fail(Kind.CANCELLED, "session setup cancelled");
    }

    private void fail(Kind kind, String message) {
        if (stage == Stage.DONE) {
            return;
        }
        if (!capable && capabilitiesSequence != 0) {
            loop.forgetSessionless(login.address(), capabilitiesSequence);
        }
        forgetSuitesQuery();
        stopResending();
        if (recalled != null && stage == Stage.OPEN) {
            // Refused, or not answered, with the remembered suite: the next session asks the BMC's suites again.
            memory.forget(login, recalled);
        }
        stage = Stage.DONE;
        if (consoleSessionId != 0) {
            loop.setUp(login.address(), consoleSessionId);
            loop.unregister(consoleSessionId);
        }
        if (keys != null) {
            keys.destroy();
        }
        result.completeExceptionally(new IpmiException(kind, login.bmc(), message));
    }

    private void stopResending() {
        if (capabilities != null) {
            capabilities.stop();
        }
        if (suitesQuery != null) {
            suitesQuery.stop();
        }
        if (pending != null) {
            pending.stop();
        }
    }

    private Duration elapsed() {
        return Duration.ofMillis((System.nanoTime() - startedAt) / 1_000_000);
    }

    private static byte[] tail(byte[] data) {
        return Arrays.copyOfRange(data, 1, data.length);
    }
}
