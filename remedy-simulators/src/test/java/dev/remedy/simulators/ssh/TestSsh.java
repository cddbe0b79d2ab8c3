package dev.remedy.simulators.ssh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.core.CoreModuleProperties;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The tests' SSH client: sshd's own {@link SshClient}, a real client independent of the server code. Trusts any
 * host key and remembers the last one it saw. Every wait is bounded by {@link #TIMEOUT}.
 */
final class TestSsh implements AutoCloseable, AfterAllCallback {

    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final SshClient client = SshClient.setUpDefaultClient();
    private final AtomicReference<PublicKey> serverKey = new AtomicReference<>();

    TestSsh() {
        CoreModuleProperties.NIO_WORKERS.set(client, 2);
        CoreModuleProperties.TCP_NODELAY.set(client, true);
        client.setServerKeyVerifier((session, address, key) -> {
            serverKey.set(key);
            return true;
        });
        client.start();
    }

    /** The host key the server presented last. */
    PublicKey serverKey() {
        return serverKey.get();
    }

    /** A session logged in with a password. */
    ClientSession login(SshDeviceSimulator sim, String user, String password) throws IOException {
        ClientSession session = connect(sim, user);
        session.addPasswordIdentity(password);
        return authenticated(session);
    }

    /** A session logged in with a key. */
    ClientSession login(SshDeviceSimulator sim, String user, KeyPair key) throws IOException {
        ClientSession session = connect(sim, user);
        session.addPublicKeyIdentity(key);
        return authenticated(session);
    }

    /** A shell (with a PTY) logged in as the default user. */
    TestTerminal shell(SshDeviceSimulator sim) throws IOException {
        return TestTerminal.open(login(sim, SshDeviceSpec.DEFAULT_USER, SshDeviceSpec.DEFAULT_PASSWORD), true);
    }

    /** Runs an exec request as the default user; its standard output once the channel closes. */
    String exec(SshDeviceSimulator sim, String command) throws IOException {
        try (ClientSession session = login(sim, SshDeviceSpec.DEFAULT_USER, SshDeviceSpec.DEFAULT_PASSWORD);
                ChannelExec exec = session.createExecChannel(command)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            exec.setOut(out);
            exec.open().verify(TIMEOUT);
            if (exec.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), TIMEOUT).contains(ClientChannelEvent.TIMEOUT)) {
                throw new AssertionError("exec '" + command + "' did not end within " + TIMEOUT);
            }
            return out.toString(StandardCharsets.US_ASCII);
        }
    }

    private ClientSession connect(SshDeviceSimulator sim, String user) throws IOException {
        return client.connect(user, sim.host(), sim.port()).verify(TIMEOUT).getSession();
    }

    private static ClientSession authenticated(ClientSession session) throws IOException {
        try {
            session.auth().verify(TIMEOUT);
            return session;
        } catch (IOException | RuntimeException e) {
            session.close(true);
            throw e;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void close() {
        client.stop();
    }
}
