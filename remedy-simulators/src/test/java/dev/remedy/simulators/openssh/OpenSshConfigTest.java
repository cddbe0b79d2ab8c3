package dev.remedy.simulators.openssh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OpenSshConfigTest {

    @Test
    @DisplayName("sshd_config: loopback, own port, key, pid file and authorized keys, one user, the forced command")
    void text() {
        Path work = Path.of("/tmp/junit1/work");
        String text = new SshdConfig(work, 40222, "remedy-fence", work.resolve("host_ed25519"),
                work.resolve("apc-cli.sh")).text();

        assertThat(text.lines()).contains("ListenAddress 127.0.0.1", "Port 40222", "HostKey /tmp/junit1/work/host_ed25519",
                "PidFile /tmp/junit1/work/sshd.pid", "AuthorizedKeysFile /tmp/junit1/work/authorized_keys/%u",
                "StrictModes no", "UsePAM no", "PasswordAuthentication yes", "KbdInteractiveAuthentication no",
                "PermitRootLogin no", "AllowUsers remedy-fence", "ForceCommand /tmp/junit1/work/apc-cli.sh",
                "PrintMotd no", "PrintLastLog no", "LogLevel VERBOSE");
        assertThat(text).doesNotContain("Subsystem").endsWith("\n");
    }
}
