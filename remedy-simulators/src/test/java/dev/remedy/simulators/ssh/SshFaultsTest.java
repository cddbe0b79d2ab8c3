package dev.remedy.simulators.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.time.Duration;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.digest.BuiltinDigests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SshFaultsTest {

    private static final String PROMPT = "\r\napc>";

    @RegisterExtension
    static final TestSsh ssh = new TestSsh();

    @Test
    void hangOnEchoesTheLineThenStaysSilentWithTheSessionOpen() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            sim.faults().hangOn("olOff");
            t.send("olOff 1\r");
            assertThat(t.expect("olOff 1\r\n")).isEqualTo("olOff 1\r\n");
            assertThatThrownBy(() -> t.expect("apc>", Duration.ofMillis(300))).isInstanceOf(AssertionError.class);
            t.send("olStatus 1\r");
            assertThatThrownBy(() -> t.expect("E000", Duration.ofMillis(200))).isInstanceOf(AssertionError.class);
            assertThat(t.session().isOpen()).isTrue();
            assertThat(sim.activeSessions()).isEqualTo(1);
            assertThat(sim.device().port("1").power()).isEqualTo(PowerState.ON);
            try (TestTerminal other = ssh.shell(sim)) {
                other.expect("apc>");
                assertThat(other.command("olStatus 1", PROMPT)).startsWith("E000: Success");
            }
            assertThat(sim.commandLog()).containsExactly("olOff 1", "olStatus 1");
        }
    }

    @Test
    void errorOnAnswersTheReplyInsteadOfRunningTheCommand() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            sim.faults().errorOn("olOff", "E200: Input Error\nE201: Try again");
            assertThat(t.command("olOff 2", PROMPT)).isEqualTo("E200: Input Error\r\nE201: Try again\r\n" + PROMPT);
            assertThat(sim.device().port("2").power()).isEqualTo(PowerState.ON);
            sim.faults().clear();
            assertThat(t.command("olOff 2", PROMPT)).isEqualTo("E000: Success\r\n" + PROMPT);
        }
    }

    @Test
    void echoCredentialsAnswersEveryLineWithAnErrorQuotingItAndTheLogin() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            sim.faults().echoCredentials(true);
            assertThat(t.command("olOff 2", PROMPT)).isEqualTo("E101: Command Not Found: 'olOff 2' refused for user "
                    + SshDeviceSpec.DEFAULT_USER + " with password " + SshDeviceSpec.DEFAULT_PASSWORD + "\r\n" + PROMPT);
            assertThat(sim.device().port("2").power()).isEqualTo(PowerState.ON);
            assertThat(ssh.exec(sim, "olStatus 1")).contains("E101: ", "with password " + SshDeviceSpec.DEFAULT_PASSWORD);
            sim.faults().clear();
            assertThat(sim.faults().echoCredentials()).isFalse();
            assertThat(t.command("olOff 2", PROMPT)).isEqualTo("E000: Success\r\n" + PROMPT);
        }
    }

    @Test
    void delaysTheBannerAndEachReply() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build())) {
            sim.faults().bannerDelay(Duration.ofMillis(200)).replyDelay(Duration.ofMillis(150));
            long start = System.nanoTime();
            try (TestTerminal t = ssh.shell(sim)) {
                t.expect("apc>");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
                long sent = System.nanoTime();
                assertThat(t.command("olStatus 1", PROMPT)).startsWith("E000: Success");
                assertThat(Duration.ofNanos(System.nanoTime() - sent)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
            }
            assertThat(sim.faults().replyDelay()).isEqualTo(Duration.ofMillis(150));
            assertThatThrownBy(() -> sim.faults().replyDelay(Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replyDelay");
        }
    }

    @Test
    void rotateHostKeyChangesTheKeyNewSessionsSee() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build())) {
            ssh.exec(sim, "olStatus 1");
            String before = sim.hostKeyFingerprint();
            sim.rotateHostKey();
            assertThat(sim.hostKeyFingerprint()).isNotEqualTo(before);
            ssh.exec(sim, "olStatus 1");
            assertThat(KeyUtils.getFingerPrint(BuiltinDigests.sha256, ssh.serverKey()))
                    .isEqualTo(sim.hostKeyFingerprint());
        }
    }
}
