package dev.remedy.simulators.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.spi.PowerState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("The OpenSSH client (a real peer) against the SSH device simulator")
class SshDeviceSimulatorOpenSshIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private Path identity;
    private PublicKey publicKey;

    @BeforeAll
    static void peersInstalled() {
        PeerPrograms.require("ssh", "openssh-client");
        PeerPrograms.require("ssh-keygen", "openssh-client");
    }

    @BeforeEach
    void key() throws Exception {
        identity = dir.resolve("id_ed25519");
        PeerCommand.Result keygen = PeerCommand.of(TIMEOUT, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C",
                "remedy-it", "-f", identity.toString()).run();
        assertThat(keygen.exitCode()).as(keygen.output()).isZero();
        String line = Files.readString(identity.resolveSibling("id_ed25519.pub"), StandardCharsets.US_ASCII).strip();
        publicKey = PublicKeyEntry.parsePublicKeyEntry(line).resolvePublicKey(null, Map.of(), null);
    }

    private PeerCommand.Result ssh(SshDeviceSimulator sim, Path knownHosts, String stdin, String... remote)
            throws InterruptedException {
        List<String> command = new ArrayList<>(List.of("ssh", "-F", "/dev/null", "-i", identity.toString(),
                "-o", "IdentitiesOnly=yes", "-o", "UserKnownHostsFile=" + knownHosts, "-o",
                "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o",
                "ConnectTimeout=10", "-p", Integer.toString(sim.port())));
        if (!stdin.isEmpty()) {
            command.add("-tt");
        }
        command.add("apc@" + sim.host());
        command.addAll(List.of(remote));
        return new PeerCommand(command, Map.of(), stdin, TIMEOUT).run();
    }

    private Path knownHosts(String line) throws Exception {
        Path file = dir.resolve("known_hosts");
        Files.writeString(file, line + "\n", StandardCharsets.US_ASCII);
        return file;
    }

    @Test
    @DisplayName("ssh logs in with an ed25519 key, checks the pinned host key and runs olStatus as exec")
    void execWithKeyAndPinnedHostKey() throws Exception {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().authorizedKey(publicKey)
                .build())) {
            PeerCommand.Result result = ssh(sim, knownHosts(sim.knownHostsLine()), "", "olStatus 3");
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(result.output()).isEqualTo("E000: Success\r\n 3: Outlet 3: On");
            assertThat(sim.commandLog()).containsExactly("olStatus 3");
        }
    }

    @Test
    @DisplayName("ssh -tt drives the interactive shell from its standard input")
    void shellOverAPty() throws Exception {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().authorizedKey(publicKey)
                .build())) {
            PeerCommand.Result result = ssh(sim, knownHosts(sim.knownHostsLine()), "olOff 4\rexit\r");
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(result.output()).contains("apc>olOff 4\r\nE000: Success\r\n\r\napc>exit\r\nBye.");
            assertThat(sim.device().port("4").power()).isEqualTo(PowerState.OFF);
        }
    }

    @Test
    @DisplayName("after rotateHostKey, ssh refuses the server its known_hosts pinned")
    void refusesAChangedHostKey() throws Exception {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().authorizedKey(publicKey)
                .build())) {
            Path pinned = knownHosts(sim.knownHostsLine());
            sim.rotateHostKey();
            PeerCommand.Result result = ssh(sim, pinned, "", "olOff 1");
            assertThat(result.exitCode()).as(result.output()).isNotZero();
            assertThat(result.output()).containsAnyOf("REMOTE HOST IDENTIFICATION HAS CHANGED",
                    "Host key verification failed");
            assertThat(sim.commandLog()).isEmpty();
            assertThat(sim.device().port("1").power()).isEqualTo(PowerState.ON);
        }
    }
}
