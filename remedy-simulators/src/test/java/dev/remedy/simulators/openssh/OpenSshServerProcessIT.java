package dev.remedy.simulators.openssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.openssh.OpenSshOptions.HostKeyType;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

@DisplayName("Debian's sshd with the APC CLI as its forced command, driven by the OpenSSH client")
class OpenSshServerProcessIT {

    @TempDir
    Path dir;

    @BeforeAll
    static void peersInstalled() {
        PeerPrograms.require("sshd", "openssh-server");
        PeerPrograms.require("ssh", "openssh-client");
        PeerPrograms.require("ssh-keygen", "openssh-client");
    }

    /** The server with one authorized client key; the client trusts the server's current host key. */
    private record Setup(OpenSshServerProcess server, Path key, SshClient client) {
    }

    private Setup keyLogin(OpenSshServerProcess server) throws IOException {
        Path key = SshClient.newKey(dir, "client_ed25519");
        server.authorizeKey(Files.readString(key.resolveSibling("client_ed25519.pub")));
        Path knownHosts = SshClient.knownHosts(dir, "known_hosts", server.knownHostsLine());
        return new Setup(server, key, new SshClient(server, knownHosts));
    }

    @Test
    @DisplayName("key login with a pinned ed25519 host key: one command per exec request, state kept in the file")
    void keyLoginExec() throws IOException {
        try (OpenSshServerProcess server = OpenSshServerProcess.start(dir, OpenSshOptions.defaults())) {
            assertThat(server.host()).isEqualTo("127.0.0.1");
            assertThat(server.user()).isEqualTo(OpenSshOptions.DEFAULT_USER);
            assertThat(server.knownHostsLine()).startsWith("[127.0.0.1]:" + server.port() + " ssh-ed25519 AAAA");
            assertThat(server.hostKeyFingerprint()).startsWith("SHA256:");
            Setup setup = keyLogin(server);

            SshClient.Result status = setup.client().withKey(setup.key(), "", List.of(), "olStatus", "3");
            assertThat(status.exitCode()).as(status.output()).isZero();
            assertThat(status.output()).contains("E000: Success", " 3: Outlet 3: On").doesNotContain("apc>");

            SshClient.Result off = setup.client().withKey(setup.key(), "", List.of(), "olOff 5");
            assertThat(off.output()).contains("E000: Success");
            assertThat(server.outletState(5)).isFalse();
            assertThat(Files.readAllLines(server.stateFile())).contains("5 off", "4 on");
            assertThat(setup.client().withKey(setup.key(), "", List.of(), "olStatus 5").output())
                    .contains(" 5: Outlet 5: Off");

            server.setOutlet(5, true);
            assertThat(setup.client().withKey(setup.key(), "", List.of(), "olStatus 5").output())
                    .contains(" 5: Outlet 5: On");
            assertThat(setup.client().withKey(setup.key(), "", List.of(), "olOn 9").output())
                    .contains("E102: Parameter Error");
            assertThat(setup.client().withKey(setup.key(), "", List.of(), "reboot now").output())
                    .contains("E101: Command Not Found");
            assertThat(server.log()).contains("Accepted publickey for " + server.user());
        }
    }

    @Test
    @DisplayName("an interactive session on a PTY (ssh -tt): banner, prompt, olOff changes the state file, exit")
    void interactiveOnTerminal() throws IOException {
        try (OpenSshServerProcess server = OpenSshServerProcess.start(dir, OpenSshOptions.defaults())) {
            Setup setup = keyLogin(server);

            SshClient.Result session = setup.client().withKey(setup.key(), "olOff 3\nolStatus 3\nexit\n",
                    List.of("-tt"));

            assertThat(session.exitCode()).as(session.output()).isZero();
            assertThat(session.output()).contains("American Power Conversion", "apc>", "E000: Success",
                    " 3: Outlet 3: Off", "Bye.");
            assertThat(server.outletState(3)).isFalse();
            assertThat(Files.readAllLines(server.stateFile())).contains("3 off");
            assertThat(server.log()).contains("on pts/");
        }
    }

    @Test
    @DisplayName("a shell without a terminal (ssh -T) reads lines until exit; a change made from Java shows")
    void shellWithoutTerminal() throws IOException {
        try (OpenSshServerProcess server = OpenSshServerProcess.start(dir, OpenSshOptions.defaults().withOutlets(4))) {
            Setup setup = keyLogin(server);
            server.setOutlet(2, false);

            SshClient.Result session = setup.client().withKey(setup.key(), "olStatus all\r\nolOn 2\nexit\n",
                    List.of("-T"));

            assertThat(session.exitCode()).as(session.output()).isZero();
            assertThat(session.output()).contains("apc>E000: Success\r\n 1: Outlet 1: On\r\n 2: Outlet 2: Off\r\n"
                    + " 3: Outlet 3: On\r\n 4: Outlet 4: On\r\n\r\napc>").doesNotContain("Outlet 5").endsWith("Bye.");
            assertThat(server.outletState(2)).isTrue();
        }
    }

    @Test
    @DisplayName("a regenerated host key: ssh with the old known_hosts line fails verification, the new one works")
    void regeneratedHostKey() throws IOException {
        try (OpenSshServerProcess server = OpenSshServerProcess.start(dir, OpenSshOptions.defaults())) {
            Setup setup = keyLogin(server);
            String oldLine = server.knownHostsLine();
            String oldFingerprint = server.hostKeyFingerprint();
            assertThat(setup.client().withKey(setup.key(), "", List.of(), "olStatus 1").exitCode()).isZero();

            server.regenerateHostKey();

            assertThat(server.knownHostsLine()).isNotEqualTo(oldLine).startsWith("[127.0.0.1]:" + server.port() + " ");
            assertThat(server.hostKeyFingerprint()).isNotEqualTo(oldFingerprint);
            assertThat(server.alive()).isTrue();
            SshClient.Result pinnedOld = setup.client().withKey(setup.key(), "", List.of(), "olStatus 1");
            assertThat(pinnedOld.exitCode()).isNotZero();
            assertThat(pinnedOld.output()).contains("Host key verification failed")
                    .contains(server.hostKeyFingerprint());

            SshClient fresh = new SshClient(server, SshClient.knownHosts(dir, "known_hosts_new", server.knownHostsLine()));
            SshClient.Result pinnedNew = fresh.withKey(setup.key(), "", List.of(), "olStatus 1");
            assertThat(pinnedNew.exitCode()).as(pinnedNew.output()).isZero();
            assertThat(pinnedNew.output()).contains(" 1: Outlet 1: On");
        }
    }

    @Test
    @DisplayName("an RSA 3072 host key is the only one offered and pins like the ed25519 one")
    void rsaHostKey() throws IOException {
        OpenSshOptions options = OpenSshOptions.defaults().withHostKeyType(HostKeyType.RSA);
        try (OpenSshServerProcess server = OpenSshServerProcess.start(dir, options)) {
            assertThat(server.knownHostsLine()).startsWith("[127.0.0.1]:" + server.port() + " ssh-rsa AAAA");
            assertThat(server.hostPublicKeyFile().getFileName()).hasToString("host_rsa.pub");
            Setup setup = keyLogin(server);

            SshClient.Result status = setup.client().withKey(setup.key(), "", List.of("-v"), "olStatus 2");

            assertThat(status.exitCode()).as(status.output()).isZero();
            assertThat(status.output()).contains(" 2: Outlet 2: On", "Server host key: ssh-rsa "
                    + server.hostKeyFingerprint());
        }
    }

    @Test
    @DisplayName("password login through sshpass (password only in SSHPASS); a wrong password is refused")
    void passwordLogin() {
        try (OpenSshServerProcess server = OpenSshServerProcess.start(dir, OpenSshOptions.defaults())) {
            server.requirePasswordLogin();
            PeerPrograms.require("sshpass", "sshpass");
            SshClient client = new SshClient(server, SshClient.knownHosts(dir, "known_hosts", server.knownHostsLine()));

            SshClient.Result status = client.withPassword(server.password(), "", List.of(), "olStatus 7");
            assertThat(status.exitCode()).as(status.output()).isZero();
            assertThat(status.output()).contains(" 7: Outlet 7: On");

            SshClient.Result session = client.withPassword(server.password(), "olOff 7\nexit\n", List.of("-tt"));
            assertThat(session.exitCode()).as(session.output()).isZero();
            assertThat(server.outletState(7)).isFalse();

            SshClient.Result wrong = client.withPassword("not-" + server.password(), "", List.of(), "olStatus 7");
            assertThat(wrong.exitCode()).isNotZero();
            assertThat(wrong.output()).contains("Permission denied");
            assertThat(server.log()).contains("Accepted password for " + server.user(),
                    "Failed password for " + server.user()).doesNotContain(server.password());
        }
    }

    @Test
    @DisplayName("close stops sshd and its open sessions, frees the port and deletes the user it created")
    void closeStopsEverything() throws Exception {
        OpenSshServerProcess server = OpenSshServerProcess.start(dir, OpenSshOptions.defaults());
        int port = server.port();
        boolean root = Host.isRoot();
        try (Socket open = new Socket()) {
            open.connect(new InetSocketAddress(server.host(), port), 2000);
            open.setSoTimeout(5000);
            assertThat(new String(open.getInputStream().readNBytes(8), StandardCharsets.US_ASCII))
                    .isEqualTo("SSH-2.0-");
            assertThat(LocalUser.exists(server.user())).isTrue();

            server.close();
            server.close();

            assertThat(server.alive()).isFalse();
            assertThat(new String(open.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                    .as("the rest of sshd's version line, then the end: the connection's process was stopped too")
                    .startsWith("OpenSSH_");
        }
        try (Socket refused = new Socket()) {
            assertThat(connects(refused, port)).as("nothing listens on port " + port + " any more").isFalse();
        }
        if (root) {
            assertThat(LocalUser.exists(OpenSshOptions.DEFAULT_USER)).isFalse();
        }
        assertThat(server.log()).contains("Received signal 15");
    }

    @Test
    @DisplayName("as root: a user left by a killed run is reused and deleted; an account it did not make is untouched")
    void leftoverAndForeignUsers(@TempDir Path other) {
        Host.require(Host.isRoot(), "creating local users needs root; run as root, as CI does");
        useradd("remedy-left", "-c", LocalUser.MARKER);
        try (OpenSshServerProcess server = OpenSshServerProcess.start(dir, OpenSshOptions.defaults()
                .withUser("remedy-left"))) {
            server.requirePasswordLogin();
            PeerPrograms.require("sshpass", "sshpass");
            SshClient client = new SshClient(server, SshClient.knownHosts(dir, "known_hosts", server.knownHostsLine()));
            SshClient.Result status = client.withPassword(server.password(), "", List.of(), "olStatus 1");
            assertThat(status.exitCode()).as(status.output()).isZero();
        }
        assertThat(LocalUser.exists("remedy-left")).isFalse();

        useradd("remedy-foreign");
        try {
            String shadow = shadowEntry("remedy-foreign");
            try (OpenSshServerProcess server = OpenSshServerProcess.start(other, OpenSshOptions.defaults()
                    .withUser("remedy-foreign"))) {
                assertThat(catchThrowable(server::requirePasswordLogin))
                        .isInstanceOf(Host.ci() ? IllegalStateException.class : TestAbortedException.class)
                        .hasMessageContaining("remedy-foreign existed before this server started");
            }
            assertThat(LocalUser.exists("remedy-foreign")).isTrue();
            assertThat(shadowEntry("remedy-foreign")).as("the password was not changed").isEqualTo(shadow);
        } finally {
            Commands.run(Commands.of("userdel", "remedy-foreign"));
        }
    }

    private static void useradd(String name, String... options) {
        List<String> command = new ArrayList<>(List.of("useradd", "-M", "-d", "/", "-s", "/bin/sh"));
        command.addAll(List.of(options));
        command.add(name);
        Commands.check("create test user " + name, Commands.of(command.toArray(String[]::new)));
    }

    private static String shadowEntry(String name) {
        return Commands.check("read the shadow entry of " + name, Commands.of("getent", "shadow", name));
    }

    private static boolean connects(Socket socket, int port) {
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
