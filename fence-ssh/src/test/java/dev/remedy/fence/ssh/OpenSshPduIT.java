package dev.remedy.fence.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.openssh.OpenSshOptions;
import dev.remedy.simulators.openssh.OpenSshServerProcess;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ssh} agent (jsch) against Debian's OpenSSH server on 127.0.0.1, whose forced command emulates an APC
 * PDU's command line: key login and password login, the host key checked against a known_hosts file (strict)
 * or a pin, and a changed host key refused with the offered fingerprint.
 */
class OpenSshPduIT {

    @TempDir
    static Path dir;

    private static OpenSshServerProcess server;
    private static Path clientKey;
    private static Path knownHosts;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        PeerPrograms.require("sshd", "openssh-server");
        PeerPrograms.require("ssh-keygen", "openssh-client");
        server = OpenSshServerProcess.start(dir, OpenSshOptions.defaults());
        clientKey = dir.resolve("client_ed25519");
        PeerCommand.Result keygen = PeerCommand.of(Duration.ofSeconds(30), "ssh-keygen", "-q", "-t", "ed25519", "-N",
                "", "-C", "remedy-it", "-f", clientKey.toString()).run();
        assertThat(keygen.exitCode()).as(keygen.output()).isZero();
        server.authorizeKey(Files.readString(dir.resolve("client_ed25519.pub")));
        knownHosts = Files.writeString(dir.resolve("known_hosts"), server.knownHostsLine() + "\n");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void allOn() {
        for (int outlet = 1; outlet <= 8; outlet++) {
            server.setOutlet(outlet, true);
        }
    }

    private static AgentConfig.Builder config() {
        return new SshFenceAgentProvider().configure().set("ip", server.host())
                .set("ipport", Integer.toString(server.port())).set("username", server.user()).set("profile", "apc")
                .set("known_hosts", knownHosts.toString()).set("poll_interval", "100ms");
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action) throws InterruptedException {
        try (FenceAgent agent = new SshFenceAgentProvider().create(config)) {
            return agent.execute(new FenceRequest(action, "openssh-it"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(30)));
        }
    }

    @Test
    @DisplayName("key login, host key in known_hosts: OFF of two outlets (dual supplies) confirmed, as the state file shows")
    void keyLoginDualPlugOff() throws InterruptedException {
        AgentConfig config = config().set("identity_file", clientKey.toString()).set("plug", "3,4").build();

        FenceOutcome off = run(config, FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.power()).isEqualTo(PowerState.OFF);
        assertThat(off.detail()).contains("plug 3 OFF", "plug 4 OFF", "(confirmed)");
        assertThat(server.outletState(3)).isFalse();
        assertThat(server.outletState(4)).isFalse();
        assertThat(server.outletState(5)).isTrue();
        assertThat(server.log()).contains("Accepted publickey for " + server.user());

        server.setOutlet(4, true);
        FenceOutcome status = run(config, FenceAction.STATUS);
        assertThat(status.power()).as("ON if any plug is on: %s", status).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("password login (the password never in a log or an outcome): ON, then LIST of the outlets")
    void passwordLogin() throws InterruptedException {
        server.requirePasswordLogin();
        server.setOutlet(6, false);
        List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(String.valueOf(record.getMessage()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger.getLogger("").addHandler(capture);
        try {
            AgentConfig config = config().secret("password", Secret.of(server.password())).set("plug", "6").build();
            FenceOutcome on = run(config, FenceAction.ON);
            assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.SUCCEEDED);
            assertThat(server.outletState(6)).isTrue();
            assertThat(server.log()).contains("Accepted password for " + server.user());

            FenceOutcome list = run(config, FenceAction.LIST);
            assertThat(list.plugs()).hasSize(8).allSatisfy(plug -> assertThat(plug.power()).isEqualTo(PowerState.ON));
            assertThat(on.toString() + list + logged).doesNotContain(server.password());
        } finally {
            Logger.getLogger("").removeHandler(capture);
        }
    }

    @Test
    @DisplayName("strict host key checking: an empty known_hosts is REFUSED with the offered fingerprint and how to pin it")
    void unknownHostKeyRefused() throws IOException, InterruptedException {
        Path empty = Files.writeString(dir.resolve("known_hosts_empty"), "");
        AgentConfig config = config().set("known_hosts", empty.toString())
                .set("identity_file", clientKey.toString()).set("plug", "2").build();

        FenceOutcome outcome = run(config, FenceAction.OFF);

        assertThat(outcome.status()).as("%s", outcome).isEqualTo(FenceStatus.REFUSED);
        assertThat(outcome.detail()).contains("is not known").contains(server.hostKeyFingerprint())
                .contains("host_key_fingerprint=" + server.hostKeyFingerprint());
        assertThat(server.outletState(2)).isTrue();

        FenceOutcome pinned = run(config().set("known_hosts", empty.toString())
                .set("host_key_fingerprint", server.hostKeyFingerprint()).set("identity_file", clientKey.toString())
                .set("plug", "2").build(), FenceAction.OFF);
        assertThat(pinned.status()).as("the pin printed is the one that works: %s", pinned)
                .isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(server.outletState(2)).isFalse();
    }

    @Test
    @DisplayName("a changed host key (the server's key regenerated) is REFUSED and nothing is switched")
    void changedHostKeyRefused() throws IOException, InterruptedException {
        try (OpenSshServerProcess other = OpenSshServerProcess.start(Files.createDirectories(dir.resolve("other")),
                OpenSshOptions.defaults().withUser("remedy-fence2"))) {
            other.authorizeKey(Files.readString(dir.resolve("client_ed25519.pub")));
            Path trusted = Files.writeString(dir.resolve("known_hosts_other"), other.knownHostsLine() + "\n");
            AgentConfig config = new SshFenceAgentProvider().configure().set("ip", other.host())
                    .set("ipport", Integer.toString(other.port())).set("username", other.user())
                    .set("profile", "apc").set("known_hosts", trusted.toString())
                    .set("identity_file", clientKey.toString()).set("plug", "1").build();
            assertThat(run(config, FenceAction.STATUS).status()).isEqualTo(FenceStatus.SUCCEEDED);

            other.regenerateHostKey();
            FenceOutcome outcome = run(config, FenceAction.OFF);

            assertThat(outcome.status()).as("%s", outcome).isEqualTo(FenceStatus.REFUSED);
            assertThat(outcome.detail()).contains("has CHANGED").contains(other.hostKeyFingerprint());
            assertThat(other.outletState(1)).isTrue();
        }
    }
}
