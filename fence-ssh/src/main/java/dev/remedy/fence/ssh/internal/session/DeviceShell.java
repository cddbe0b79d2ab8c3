package dev.remedy.fence.ssh.internal.session;

import com.jcraft.jsch.ChannelShell;
import com.jcraft.jsch.HostKeyRepository;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * An interactive shell on a device over SSH (jsch): a PTY wide enough that nothing wraps, text sent as typed, and
 * what the device writes read with bounded waits. Modern algorithms only ({@link Algorithms}); the host key is
 * verified by its {@link HostKeyPolicy} before any credential is sent. Not thread-safe: one action uses it, then
 * closes it.
 */
public final class DeviceShell implements AutoCloseable {

    private final SshLogin login;
    private final Session session;
    private final ChannelShell channel;
    private final Screen screen;
    private final OutputStream keys;

    private DeviceShell(SshLogin login, Session session, ChannelShell channel, Screen screen, OutputStream keys) {
        this.login = login;
        this.session = session;
        this.channel = channel;
        this.screen = screen;
        this.keys = keys;
    }

    /**
     * Connects, verifies the host key, authenticates and opens a shell, all within {@code timeout}.
     *
     * @throws SshException of kind CONNECT, HOST_KEY_UNKNOWN, HOST_KEY_CHANGED, AUTHENTICATION, TIMEOUT or PROTOCOL
     */
    public static DeviceShell open(SshLogin login, Duration timeout) throws SshException {
        JSch jsch = new JSch();
        HostKeyCheck hostKeys = new HostKeyCheck(login.hostKeys(), jsch);
        jsch.setHostKeyRepository(hostKeys);
        byte[] passphrase = login.passphrase().map(Secret::revealBytes).orElse(null);
        Session session = null;
        try {
            if (login.identity().isPresent()) {
                addIdentity(jsch, login.identity().get(), passphrase);
            }
            session = jsch.getSession(login.user(), login.host(), login.port());
            if (login.password().isPresent()) {
                session.setPassword(login.password().get().revealBytes());
            }
            Algorithms.of(login.legacy(), login.hostKeys()).forEach(session::setConfig);
            session.setConfig("StrictHostKeyChecking", "yes");
            session.setConfig("PreferredAuthentications", login.identity().isPresent()
                    ? (login.password().isPresent() ? "publickey,password" : "publickey") : "password");
            int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            session.setTimeout(millis);
            long start = System.nanoTime();
            session.connect(millis);
            ChannelShell channel = (ChannelShell) session.openChannel("shell");
            channel.setPtyType("dumb", 512, 48, 0, 0);
            channel.setPty(true);
            Screen screen = new Screen();
            channel.setOutputStream(screen, false);
            OutputStream keys = channel.getOutputStream();
            int left = (int) Math.max(1, millis - (System.nanoTime() - start) / 1_000_000);
            channel.connect(left);
            return new DeviceShell(login, session, channel, screen, keys);
        } catch (JSchException | IOException e) {
            if (session != null) {
                session.disconnect();
            }
            throw failure(login, hostKeys, e);
        } finally {
            if (passphrase != null) {
                Arrays.fill(passphrase, (byte) 0);
            }
        }
    }

    private static void addIdentity(JSch jsch, Path file, byte[] passphrase) throws SshException, JSchException {
        byte[] key;
        try {
            key = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new SshException(SshException.Kind.PROTOCOL, "cannot read identity_file " + file + ": " + e
                    + "; give the path of an OpenSSH private key readable by this process", e);
        }
        try {
            jsch.addIdentity(file.toString(), key, null, passphrase);
        } catch (JSchException e) {
            throw new SshException(SshException.Kind.PROTOCOL, "cannot use identity_file " + file + ": "
                    + e.getMessage() + (passphrase == null ? "; if the key has a passphrase, give identity_passphrase"
                    : "; check identity_passphrase and the key's format (OpenSSH or PEM)"), e);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /** For a pin without its key type: how to pin a key of another type than the one the device offered first. */
    private static String otherType(HostKeyPolicy policy) {
        return policy instanceof HostKeyPolicy.Pinned pinned && pinned.keyType().isEmpty() ? "; if the pinned key"
                + " is of another type (a device can have several), give its type before the fingerprint:"
                + " host_key_fingerprint='ssh-rsa " + pinned.fingerprint() + "' for an RSA key" : "";
    }

    /** {@code " (the known_hosts file F does not exist)"} when it does not, else empty. */
    private static String missingKnownHosts(HostKeyPolicy policy) {
        return policy instanceof HostKeyPolicy.KnownHosts known && !Files.exists(known.file())
                ? " (the known_hosts file " + known.file() + " does not exist: check the known_hosts option)" : "";
    }

    private static SshException failure(SshLogin login, HostKeyCheck hostKeys, Exception e) {
        String where = login.describe();
        String message = String.valueOf(e.getMessage());
        if (hostKeys.verdict() == HostKeyRepository.NOT_INCLUDED && !hostKeys.offeredFingerprint().isEmpty()) {
            return new SshException(SshException.Kind.HOST_KEY_UNKNOWN, "the host key of " + where + " is not known"
                    + missingKnownHosts(login.hostKeys()) + ": it offered " + hostKeys.offeredType() + " " + hostKeys.offeredFingerprint() + "; if that is the"
                    + " device's key (check on its console), set host_key_fingerprint=" + hostKeys.offeredFingerprint()
                    + " or add it to the known_hosts file (ssh-keyscan -p " + login.port() + " " + login.host()
                    + ")", e);
        }
        if (hostKeys.verdict() == HostKeyRepository.CHANGED) {
            return new SshException(SshException.Kind.HOST_KEY_CHANGED, "the host key of " + where + " has CHANGED: "
                    + "it offered " + hostKeys.offeredType() + " " + hostKeys.offeredFingerprint() + ", which is not"
                    + " the known or pinned key; someone may be posing as the device, or it was replaced: verify the"
                    + " new key on the device's console before you trust it" + otherType(login.hostKeys()), e);
        }
        if (message.startsWith("Auth fail") || message.startsWith("Auth cancel")) {
            return new SshException(SshException.Kind.AUTHENTICATION, where + " refused the login: check username, "
                    + "password or identity_file", e);
        }
        if (message.contains("Algorithm negotiation fail")) {
            return new SshException(SshException.Kind.PROTOCOL, where + " offers none of the SSH algorithms remedy "
                    + "allows (" + message + ")" + (login.legacy() ? "" : "; update the device's firmware, or set "
                    + "ssh_legacy_algorithms=true to allow SHA-1, CBC and ssh-rsa for it (unsafe)"), e);
        }
        Throwable cause = e.getCause();
        if (message.contains("timeout") || message.contains("timed out")
                || cause instanceof java.net.SocketTimeoutException) {
            return new SshException(SshException.Kind.TIMEOUT, "no SSH answer from " + where + " in time (" + message
                    + "): check ip and ipport, and that SSH is enabled on the device", e);
        }
        if (cause instanceof java.net.ConnectException || cause instanceof java.net.UnknownHostException
                || cause instanceof java.net.NoRouteToHostException) {
            return new SshException(SshException.Kind.CONNECT, "cannot connect to " + where + ": " + cause.getMessage()
                    + "; check ip and ipport, and that SSH is enabled on the device", e);
        }
        if (message.contains("session is down") || message.contains("channel is not opened")) {
            return new SshException(SshException.Kind.DISCONNECTED, where + " closed the session: " + message, e);
        }
        return new SshException(SshException.Kind.PROTOCOL, "SSH to " + where + " failed: " + message, e);
    }

    /** Types {@code text} followed by a carriage return, as a user at a terminal would. */
    public void sendLine(String text) throws SshException {
        send(text + "\r");
    }

    /** Types {@code text} without a line end (a pager's key). */
    public void send(String text) throws SshException {
        try {
            keys.write(text.getBytes(StandardCharsets.ISO_8859_1));
            keys.flush();
        } catch (IOException e) {
            throw new SshException(SshException.Kind.DISCONNECTED, login.describe() + " closed the session while remedy"
                    + " was typing: " + e.getMessage(), e);
        }
    }

    /**
     * Waits until the last line the device wrote passes {@code lastLine}, then returns everything unread.
     *
     * @return the text, ending with that last line, or {@code null} if the deadline passed or the session ended
     */
    public String await(Predicate<String> lastLine, long deadlineNanos) throws InterruptedException {
        return screen.take(lastLine, deadlineNanos);
    }

    /** Whether the device closed the session. */
    public boolean ended() {
        return screen.closed() || !channel.isConnected() || !session.isConnected();
    }

    /** Waits until the device closes the session; returns whether it did before the deadline. */
    public boolean awaitEnd(long deadlineNanos) throws InterruptedException {
        return screen.awaitClosed(deadlineNanos) || !session.isConnected();
    }

    /** The last line the device wrote and nobody read, for messages. */
    public String lastLine() {
        return screen.lastLine();
    }

    /** The login this shell was opened with. */
    public SshLogin login() {
        return login;
    }

    /** Closes the channel and the session; never fails. */
    @Override
    public void close() {
        channel.disconnect();
        session.disconnect();
        screen.close();
    }
}
