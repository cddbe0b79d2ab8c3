package dev.remedy.simulators.ssh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.sshd.common.NamedFactory;
import org.apache.sshd.common.cipher.BuiltinCiphers;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.digest.BuiltinDigests;
import org.apache.sshd.common.kex.BuiltinDHFactories;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.common.mac.BuiltinMacs;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionContext;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.common.signature.BuiltinSignatures;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.server.ServerBuilder;
import org.apache.sshd.server.SshServer;

/**
 * An SSH server on a loopback port that imitates a network device a fence agent drives over SSH: an APC PDU, a
 * Cisco IOS-style switch, a Brocade FOS switch or a Linux host, following the dialogue contract of the
 * {@code fence-ssh} agent. Built on Apache MINA sshd: password and public-key logins from the
 * {@link SshDeviceSpec}, a host key generated in memory at start (and on {@link #rotateHostKey()}), an
 * interactive shell (with or without a PTY) running the device's CLI, and exec requests running one line of it.
 *
 * <p>Binds {@code 127.0.0.1} on a free port. Sessions cost no thread of their own: sshd's I/O threads (2) serve
 * them and its timer thread runs delayed answers. Read state and set faults from any thread. Close it to stop the
 * server, drop every session and free the port.
 *
 * <pre>{@code
 * try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build())) {
 *     // ssh -p sim.port() apc@127.0.0.1, password apc-secret; "olOff 3" at the apc> prompt
 *     sim.device().port("3").power();   // OFF
 * }
 * }</pre>
 */
public final class SshDeviceSimulator implements AutoCloseable {

    /** Command lines kept by {@link #commandLog()} (the oldest are dropped first). */
    public static final int COMMAND_LOG_LIMIT = 10_000;
    /** The address the server binds. */
    public static final String HOST = "127.0.0.1";

    private static final int IO_THREADS = 2;
    private static final long CLOSE_WAIT_SECONDS = 5;

    private final SshDeviceSpec spec;
    private final SshServer server;
    private final HostKey hostKey;
    private final SimulatedDevice device;
    private final SshFaults faults;
    private final CommandLog log;
    private final SessionCounter sessions;

    private SshDeviceSimulator(SshDeviceSpec spec, SshServer server, HostKey hostKey, SimulatedDevice device,
            SshFaults faults, CommandLog log, SessionCounter sessions) {
        this.spec = spec;
        this.server = server;
        this.hostKey = hostKey;
        this.device = device;
        this.faults = faults;
        this.log = log;
        this.sessions = sessions;
    }

    /**
     * Starts a simulator of {@code spec}'s device.
     *
     * @throws UncheckedIOException if no loopback port can be bound
     * @throws IllegalStateException if the JDK cannot generate the host key
     */
    public static SshDeviceSimulator start(SshDeviceSpec spec) {
        Objects.requireNonNull(spec, "spec");
        SshServer server = SshServer.setUpDefaultServer();
        HostKey hostKey = new HostKey(spec.hostKeyType(), spec.secondHostKeyType());
        SimulatedDevice device = new SimulatedDevice(spec, () -> server.getActiveSessions()
                .forEach(session -> session.close(true)));
        SshFaults faults = new SshFaults();
        CommandLog log = new CommandLog(COMMAND_LOG_LIMIT);
        SessionCounter sessions = new SessionCounter(device);
        Set<String> keys = spec.authorizedKeys().stream().map(PublicKeyEntry::toString).collect(Collectors.toSet());
        server.setHost(HOST);
        server.setPort(0);
        CoreModuleProperties.NIO_WORKERS.set(server, IO_THREADS);
        // A device answers with several small writes (echo, reply, prompt): with Nagle on, a client's delayed ACK
        // would hold each one for about 40 ms.
        CoreModuleProperties.TCP_NODELAY.set(server, true);
        server.setKeyPairProvider(hostKey);
        if (spec.legacyAlgorithms()) {
            server.setKeyExchangeFactories(NamedFactory.setUpTransformedFactories(false,
                    List.of(BuiltinDHFactories.dhg14), ServerBuilder.DH2KEX));
            server.setSignatureFactories(List.of(BuiltinSignatures.rsa));
            server.setCipherFactories(List.of(BuiltinCiphers.aes128cbc));
            server.setMacFactories(List.of(BuiltinMacs.hmacsha1));
        }
        server.setPasswordAuthenticator((user, password, session) -> spec.users().containsKey(user)
                && MessageDigest.isEqual(spec.users().get(user).getBytes(StandardCharsets.UTF_8),
                        password.getBytes(StandardCharsets.UTF_8)));
        server.setPublickeyAuthenticator((user, key, session) -> spec.users().containsKey(user)
                && keys.contains(PublicKeyEntry.toString(key)));
        server.addSessionListener(sessions);
        server.setShellFactory(channel -> new TerminalSession(spec, spec.cli(device), faults, log,
                server.getScheduledExecutorService(), null));
        server.setCommandFactory((channel, command) -> new TerminalSession(spec, spec.cli(device), faults,
                log, server.getScheduledExecutorService(), command));
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the SSH device simulator to a free port on " + HOST + ": "
                    + e, e);
        }
        return new SshDeviceSimulator(spec, server, hostKey, device, faults, log, sessions);
    }

    /** How the simulator was set up. */
    public SshDeviceSpec spec() {
        return spec;
    }

    /** The address the server listens on: always {@value #HOST}. */
    public String host() {
        return HOST;
    }

    /** The TCP port the server listens on. */
    public int port() {
        return server.getPort();
    }

    /** The host key the server presents now. */
    public PublicKey hostKey() {
        return hostKey.current().getPublic();
    }

    /** The host key's fingerprint as OpenSSH shows it: {@code SHA256:<base64 without padding>}. */
    public String hostKeyFingerprint() {
        return KeyUtils.getFingerPrint(BuiltinDigests.sha256, hostKey());
    }

    /**
     * The fingerprint of the host key of {@code type}, the first or the {@link SshDeviceSpec.Builder#secondHostKey}.
     *
     * @throws IllegalArgumentException if the device has no host key of that type
     */
    public String hostKeyFingerprint(HostKeyType type) {
        return KeyUtils.getFingerPrint(BuiltinDigests.sha256, hostKey.of(type).getPublic());
    }

    /** The {@code known_hosts} line OpenSSH writes for this server: {@code [127.0.0.1]:<port> <type> <base64>}. */
    public String knownHostsLine() {
        return "[" + HOST + "]:" + port() + " " + PublicKeyEntry.toString(hostKey());
    }

    /**
     * Replaces the host key with a new one of the same type; sessions opened from now on see it (a client that
     * pinned the old key must refuse them).
     */
    public void rotateHostKey() {
        hostKey.rotate();
    }

    /** The device state behind the CLI. */
    public SimulatedDevice device() {
        return device;
    }

    /** The faults to inject. */
    public SshFaults faults() {
        return faults;
    }

    /** SSH sessions (connections) open now, logged in or not. */
    public int activeSessions() {
        return sessions.active.get();
    }

    /** SSH sessions (connections) opened since start. */
    public long sessionsOpened() {
        return sessions.opened.get();
    }

    /**
     * The latest command lines received, in every session and exec request, oldest first (at most
     * {@value #COMMAND_LOG_LIMIT}): each stripped of leading and trailing blanks; blank lines, confirmation
     * answers and paging keys are not commands.
     */
    public List<String> commandLog() {
        return log.entries();
    }

    /** Stops the server and drops every session, waiting at most 5 seconds. Idempotent. */
    @Override
    public void close() {
        try {
            server.close(true).await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException("the SSH device simulator did not close: " + e, e);
        }
    }

    @Override
    public String toString() {
        return "SshDeviceSimulator[" + spec.device() + " on " + HOST + ":" + port() + ", sessions="
                + activeSessions() + "]";
    }

    /** The server's host key (and its second one, of another type, if it has one), replaceable while it runs. */
    private static final class HostKey implements KeyPairProvider {

        private final HostKeyType type;
        private final Optional<HostKeyType> secondType;
        private volatile KeyPair current;
        private volatile Optional<KeyPair> second;

        HostKey(HostKeyType type, Optional<HostKeyType> secondType) {
            this.type = type;
            this.secondType = secondType;
            rotate();
        }

        KeyPair current() {
            return current;
        }

        KeyPair of(HostKeyType wanted) {
            if (wanted == type) {
                return current;
            }
            return second.filter(key -> secondType.orElseThrow() == wanted).orElseThrow(() ->
                    new IllegalArgumentException("the device has no " + wanted + " host key"));
        }

        void rotate() {
            current = generate(type);
            second = secondType.map(HostKey::generate);
        }

        private static KeyPair generate(HostKeyType type) {
            try {
                return KeyUtils.generateKeyPair(type.sshName(), type.bits());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("cannot generate an " + type + " host key: " + e, e);
            }
        }

        @Override
        public Iterable<KeyPair> loadKeys(SessionContext session) {
            return second.map(key -> List.of(current, key)).orElse(List.of(current));
        }
    }

    /** Counts sessions and turns logins away while a Linux host is down. */
    private static final class SessionCounter implements SessionListener {

        private final SimulatedDevice device;
        private final AtomicInteger active = new AtomicInteger();
        private final AtomicLong opened = new AtomicLong();

        SessionCounter(SimulatedDevice device) {
            this.device = device;
        }

        @Override
        public void sessionCreated(Session session) {
            active.incrementAndGet();
            opened.incrementAndGet();
        }

        @Override
        public void sessionEvent(Session session, Event event) {
            if (event == Event.Authenticated && !device.acceptsLogins()) {
                session.close(true);
            }
        }

        @Override
        public void sessionClosed(Session session) {
            active.decrementAndGet();
        }
    }
}
