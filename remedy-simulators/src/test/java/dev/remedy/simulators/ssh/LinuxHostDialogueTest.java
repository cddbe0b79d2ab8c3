package dev.remedy.simulators.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.sshd.client.session.ClientSession.ClientSessionEvent;
import org.apache.sshd.client.session.ClientSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LinuxHostDialogueTest {

    private static final String PROMPT = "root@remedy-node-1:~# ";

    @RegisterExtension
    static final TestSsh ssh = new TestSsh();

    private static SshDeviceSimulator host(AtomicLong clock) {
        return SshDeviceSimulator.start(SshDeviceSpec.builder().device(DeviceKind.LINUX_HOST)
                .powerDelay(Duration.ofSeconds(3)).nanoClock(clock::get).build());
    }

    @Test
    void reportsAndRestartsTheKubelet() throws IOException {
        AtomicLong clock = new AtomicLong();
        try (SshDeviceSimulator sim = host(clock); TestTerminal t = ssh.shell(sim)) {
            assertThat(t.expect(PROMPT)).isEqualTo(PROMPT);
            assertThat(t.command("systemctl is-active kubelet", PROMPT)).isEqualTo("active\r\n" + PROMPT);
            sim.device().kubeletState("failed");
            assertThat(t.command("systemctl is-active kubelet", PROMPT)).isEqualTo("failed\r\n" + PROMPT);
            assertThat(t.command("systemctl restart kubelet", PROMPT)).isEqualTo(PROMPT);
            assertThat(sim.device().kubeletRestarts()).isEqualTo(1);
            assertThat(t.command("systemctl is-active kubelet", PROMPT)).isEqualTo("activating\r\n" + PROMPT);
            clock.addAndGet(Duration.ofSeconds(3).toNanos());
            assertThat(t.command("systemctl is-active kubelet", PROMPT)).isEqualTo("active\r\n" + PROMPT);
            assertThat(t.command("systemctl stop kubelet", PROMPT)).isEqualTo(PROMPT);
            assertThat(t.command("systemctl is-active kubelet.service", PROMPT)).isEqualTo("inactive\r\n" + PROMPT);
            assertThat(t.command("uptime", PROMPT)).isEqualTo(
                    " 10:00:00 up 1 day,  2:03,  1 user,  load average: 0.00, 0.01, 0.05\r\n" + PROMPT);
            assertThat(t.command("echo 1 > /proc/sys/kernel/sysrq", PROMPT)).isEqualTo(PROMPT);
            assertThat(t.command("reboot now", PROMPT)).isEqualTo("-bash: reboot: command not found\r\n" + PROMPT);
            assertThat(sim.device().kubeletRestarts()).isEqualTo(1);
            assertThat(sim.device().reboots()).isZero();
        }
    }

    @Test
    void sysrqRebootDropsTheConnectionAndRefusesLoginsForTheRebootTime() throws IOException {
        AtomicLong clock = new AtomicLong();
        try (SshDeviceSimulator sim = host(clock); TestTerminal t = ssh.shell(sim)) {
            t.expect(PROMPT);
            String bootBefore = sim.device().bootId();
            assertThat(t.command("cat /proc/sys/kernel/random/boot_id", PROMPT)).isEqualTo(bootBefore + "\r\n" + PROMPT);
            t.send("echo b > /proc/sysrq-trigger\r");
            assertThat(t.session().waitFor(EnumSet.of(ClientSessionEvent.CLOSED), TestSsh.TIMEOUT))
                    .contains(ClientSessionEvent.CLOSED);
            assertThat(t.expect("echo b > /proc/sysrq-trigger\r\n")).doesNotContain(PROMPT);
            assertThatThrownBy(() -> t.expect(PROMPT, Duration.ofMillis(100))).isInstanceOf(AssertionError.class);
            assertThat(sim.device().reboots()).isEqualTo(1);
            assertThat(sim.device().up()).isFalse();
            assertThat(refused(sim)).isTrue();

            clock.addAndGet(SshDeviceSpec.DEFAULT_LINUX_REBOOT_TIME.toNanos());
            assertThat(sim.device().up()).isTrue();
            try (TestTerminal again = ssh.shell(sim)) {
                again.expect(PROMPT);
                assertThat(again.command("systemctl is-active kubelet", PROMPT)).isEqualTo("active\r\n" + PROMPT);
                assertThat(again.command("cat /proc/sys/kernel/random/boot_id", PROMPT))
                        .isEqualTo(sim.device().bootId() + "\r\n" + PROMPT).doesNotContain(bootBefore);
            }
        }
    }

    /** Whether a login is turned away: the session closes right after authentication, or authentication fails. */
    private static boolean refused(SshDeviceSimulator sim) {
        try (ClientSession session = ssh.login(sim, SshDeviceSpec.DEFAULT_USER, SshDeviceSpec.DEFAULT_PASSWORD)) {
            return session.waitFor(EnumSet.of(ClientSessionEvent.CLOSED), TestSsh.TIMEOUT)
                    .contains(ClientSessionEvent.CLOSED);
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }
}
