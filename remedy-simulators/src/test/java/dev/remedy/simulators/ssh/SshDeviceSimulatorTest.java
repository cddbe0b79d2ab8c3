package dev.remedy.simulators.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.digest.BuiltinDigests;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SshDeviceSimulatorTest {

    @RegisterExtension
    static final TestSsh ssh = new TestSsh();

    private static KeyPair ed25519() throws GeneralSecurityException {
        return KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256);
    }

    @Test
    void logsInWithAPasswordOfAnyConfiguredUserOnly() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().user("apc", "apc-secret")
                .user("operator", "op-secret").build())) {
            try (ClientSession session = ssh.login(sim, "operator", "op-secret")) {
                assertThat(session.isAuthenticated()).isTrue();
            }
            assertThatThrownBy(() -> ssh.login(sim, "apc", "wrong").close()).isInstanceOf(Exception.class);
            assertThatThrownBy(() -> ssh.login(sim, "root", "apc-secret").close()).isInstanceOf(Exception.class);
            assertThat(sim.host()).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void logsInWithAnAuthorizedEd25519Key() throws Exception {
        KeyPair authorized = ed25519();
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder()
                .authorizedKey(authorized.getPublic()).build())) {
            try (ClientSession session = ssh.login(sim, "apc", authorized);
                    TestTerminal t = TestTerminal.open(session, false)) {
                t.expect("apc>");
                assertThat(t.command("olStatus 1", "\r\napc>")).startsWith("E000: Success\r\n 1: Outlet 1: On\r\n");
            }
            KeyPair stranger = ed25519();
            assertThatThrownBy(() -> ssh.login(sim, "apc", stranger).close()).isInstanceOf(Exception.class);
            assertThatThrownBy(() -> ssh.login(sim, "nobody", authorized).close()).isInstanceOf(Exception.class);
        }
    }

    @Test
    void publishesTheHostKeyTheClientSees() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build())) {
            ssh.exec(sim, "olStatus 1");
            assertThat(KeyUtils.getFingerPrint(BuiltinDigests.sha256, ssh.serverKey()))
                    .isEqualTo(sim.hostKeyFingerprint());
            assertThat(sim.hostKeyFingerprint()).matches("SHA256:[A-Za-z0-9+/]{43}");
            assertThat(sim.knownHostsLine()).matches("\\[127\\.0\\.0\\.1]:" + sim.port() + " ssh-ed25519 AAAA\\S+")
                    .endsWith(PublicKeyEntry.toString(ssh.serverKey()));
        }
    }

    @Test
    void servesAnRsaHostKeyWhenAskedTo() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder()
                .hostKeyType(HostKeyType.RSA).build())) {
            assertThat(ssh.exec(sim, "olStatus 2")).isEqualTo("E000: Success\r\n 2: Outlet 2: On\r\n");
            assertThat(KeyUtils.getKeyType(ssh.serverKey())).isEqualTo("ssh-rsa");
            assertThat(sim.knownHostsLine()).contains(" ssh-rsa AAAA");
        }
    }

    @Test
    void execRunsOneLineOfTheCliAndLogsIt() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build())) {
            assertThat(ssh.exec(sim, "olOff 3")).isEqualTo("E000: Success\r\n");
            assertThat(ssh.exec(sim, "olStatus 3")).isEqualTo("E000: Success\r\n 3: Outlet 3: Off\r\n");
            assertThat(ssh.exec(sim, "bogus")).isEqualTo("E101: Command Not Found\r\n");
            assertThat(sim.commandLog()).containsExactly("olOff 3", "olStatus 3", "bogus");
        }
    }

    @Test
    void countsSessionsAndBackToZeroOnceClientsClose() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build())) {
            TestTerminal first = ssh.shell(sim);
            TestTerminal second = ssh.shell(sim);
            first.expect("apc>");
            second.expect("apc>");
            assertThat(sim.activeSessions()).isEqualTo(2);
            first.close();
            second.close();
            assertThat(eventually(sim::activeSessions, 0)).isZero();
            assertThat(sim.sessionsOpened()).isEqualTo(2);
        }
    }

    @Test
    void runsACommandLineOfYourOwnOnTheDevicesState() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().cli(OffOnlyCli::new).build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("custom device\r\n> ");
            assertThat(t.command("off 2", "> ")).isEqualTo("done\r\n> ");
            assertThat(t.command("on 2", "> ")).isEqualTo("what?\r\n> ");
            assertThat(sim.device().port("2").power()).isEqualTo(PowerState.OFF);
            assertThat(sim.commandLog()).containsExactly("off 2", "on 2");
        }
    }

    /** A device the simulator does not know: it understands {@code off N} only. */
    private record OffOnlyCli(SimulatedDevice device) implements DeviceCli {

        @Override
        public String greeting() {
            return "custom device\r\n";
        }

        @Override
        public String prompt() {
            return "> ";
        }

        @Override
        public Reply execute(String command) {
            if (command.startsWith("off ")) {
                device.port(command.substring(4)).power(PowerState.OFF);
                return Reply.lines("done");
            }
            return Reply.lines("what?");
        }
    }

    @Test
    void closeDropsSessionsAndFreesThePort() throws IOException {
        SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build());
        int port = sim.port();
        try (TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            sim.close();
            assertThat(t.closedWithin(TestSsh.TIMEOUT)).isTrue();
        }
        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
        sim.close();
    }

    /** Polls (bounded by {@link TestSsh#TIMEOUT}) until {@code value} reaches {@code expected}; the last reading. */
    private static int eventually(IntSupplier value, int expected) {
        long deadline = System.nanoTime() + TestSsh.TIMEOUT.toNanos();
        while (value.getAsInt() != expected && System.nanoTime() - deadline < 0) {
            try {
                TimeUnit.MILLISECONDS.sleep(Duration.ofMillis(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return value.getAsInt();
    }
}
